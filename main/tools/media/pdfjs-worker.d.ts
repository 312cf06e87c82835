/** PDF.js ships no types for its worker module; pdf-text.ts only hands it back to PDF.js. */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
