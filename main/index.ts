import { startDesktop } from './electron/start-desktop';

// Composition root of the desktop app; browser mode starts from serve.ts instead.
void startDesktop();
