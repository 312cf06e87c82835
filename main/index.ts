import { isSmokeTest, startSmokeTest } from './front-doors/electron/smoke-test';
import { startDesktop } from './front-doors/electron/start-desktop';
import { keepHeapNearLive } from './platform/heap/heap-release';

// A companion that sits in the background all day keeps V8's heap near what is live: set as it
// starts, once its modules have loaded (heap-release.ts says what that leaves).
keepHeapNearLive();

// Composition root of the desktop app; browser mode starts from serve.ts instead.
// `--smoke-test` runs the release pipeline's check of an installed build and exits.
void (isSmokeTest(process.argv) ? startSmokeTest() : startDesktop());
