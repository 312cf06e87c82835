// `npm run icons`: regenerate build/icons/*.png, build/icon.ico and build/icon.icns from build/icon.svg.
import { join } from 'node:path';
import { generateIcons } from './icons/generate-icons';

const buildDir = join(import.meta.dirname, '..', 'build');
const written = await generateIcons(buildDir);
console.log(`Wrote ${written.length} icon files to build/: ${written.join(', ')}`);
