/** PDF.js ships no types for its worker module; pdf-text.ts imports it for its side effect only. */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs';
