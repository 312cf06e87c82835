/** Whether a process with this id still exists (signal 0 only asks), for tests that kill children. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
