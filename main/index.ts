import { isSmokeTest, startSmokeTest } from './front-doors/electron/smoke-test';
import { startDesktop } from './front-doors/electron/start-desktop';

// Composition root of the desktop app; browser mode starts from serve.ts instead.
// `--smoke-test` runs the release pipeline's check of an installed build and exits.
void (isSmokeTest(process.argv) ? startSmokeTest() : startDesktop());
