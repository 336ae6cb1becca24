import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { app, dialog, type BrowserWindow, type PrintToPDFOptions } from 'electron';
import { PdfFileName, type SavedPdf } from '../../shared/ipc/host.ts';

/**
 * The report on A4 as its print style sheet lays it out (the page shows the report when the
 * person asks), with an outline from its headings and tags for screen readers.
 */
export const REPORT_PDF_OPTIONS = {
  pageSize: 'A4',
  printBackground: true,
  margins: { top: 0.5, bottom: 0.5, left: 0.5, right: 0.5 },
  generateDocumentOutline: true,
  generateTaggedPDF: true,
} satisfies PrintToPDFOptions;

/**
 * Prints the window to PDF and writes it where the person chooses in a save dialog (undefined
 * when they cancel). The file appears whole or not at all: a PDF cut short by a crash would look
 * like a report and be none.
 */
export async function savePdf(window: BrowserWindow | undefined, fileName: string): Promise<SavedPdf> {
  // Checked again at the OS edge: the name is proposed in a dialog, never used as a path.
  const name = PdfFileName.parse(fileName);
  if (!window || window.isDestroyed()) throw new Error('no window shows the report');
  const choice = await dialog.showSaveDialog(window, {
    title: 'Save the report as PDF',
    defaultPath: path.join(app.getPath('documents'), name),
    filters: [{ name: 'PDF documents', extensions: ['pdf'] }],
    properties: ['createDirectory', 'showOverwriteConfirmation'],
  });
  if (choice.canceled || !choice.filePath) return undefined;
  const file = /\.pdf$/i.test(choice.filePath) ? choice.filePath : `${choice.filePath}.pdf`;
  const data = await window.webContents.printToPDF(REPORT_PDF_OPTIONS);
  const partial = `${file}.${process.pid}.partial`;
  try {
    await writeFile(partial, data, { mode: 0o600 });
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { file };
}
