// The report as a PDF from the desktop app: Electron's save dialog and printToPDF, played by the
// strict fake (its rules follow lib/browser/api/dialog.ts and lib/browser/print-to-pdf.ts).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBrowserWindow, fake, refusals, resetElectron } from './fakeElectron.ts';

vi.mock('electron', async () => (await import('./fakeElectron.ts')).electron);

const { REPORT_PDF_OPTIONS, savePdf } = await import('../../electron/main/savePdf.ts');

let dir: string;
let window: FakeBrowserWindow;
beforeEach(() => {
  resetElectron();
  dir = mkdtempSync(path.join(os.tmpdir(), 'bm-pdf-'));
  fake().app.paths.documents = dir;
  window = new FakeBrowserWindow({});
  void window.loadURL('app://bundle/index.html#/reports');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const asWindow = (w: FakeBrowserWindow) => w as unknown as Electron.BrowserWindow;

describe('savePdf', () => {
  it('proposes the name in Documents, prints the window on A4 and writes the file whole, adding .pdf', async () => {
    fake().dialog.saveAnswers.push({ filePath: path.join(dir, 'my report') });
    const saved = await savePdf(asWindow(window), 'breach-monitor-report-2026-11-24.pdf');
    expect(saved).toEqual({ file: path.join(dir, 'my report.pdf') });
    const [dialog] = fake().dialog.saveDialogs;
    expect(dialog!.parent).toBe(window);
    expect(dialog!.options).toMatchObject({ defaultPath: path.join(dir, 'breach-monitor-report-2026-11-24.pdf'), filters: [{ name: 'PDF documents', extensions: ['pdf'] }] });
    expect(window.webContents.printedToPdf).toEqual([REPORT_PDF_OPTIONS]);
    expect(readFileSync(saved!.file, 'utf8')).toMatch(/^%PDF-1\.7\n/);
    expect(statSync(saved!.file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['my report.pdf']);
    expect(refusals).toEqual([]);
  });

  it('a closed dialog saves nothing and prints nothing', async () => {
    fake().dialog.saveAnswers.push('cancel');
    expect(await savePdf(asWindow(window), 'report.pdf')).toBeUndefined();
    expect(window.webContents.printedToPdf).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a path for a name before any dialog, and a missing window', async () => {
    await expect(savePdf(asWindow(window), '../outside.pdf')).rejects.toThrow(/without folders/);
    await expect(savePdf(undefined, 'report.pdf')).rejects.toThrow('no window shows the report');
    expect(fake().dialog.saveDialogs).toEqual([]);
  });

  it('a folder that cannot be written leaves no partial file and says why', async () => {
    const missing = path.join(dir, 'gone', 'report.pdf');
    fake().dialog.saveAnswers.push({ filePath: missing });
    await expect(savePdf(asWindow(window), 'report.pdf')).rejects.toThrow(/ENOENT/);
    expect(existsSync(path.dirname(missing))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('the fake is as strict as Electron here', () => {
  it('printToPDF refuses what lib/browser/print-to-pdf.ts refuses', async () => {
    const contents = window.webContents;
    expect(() => contents.printToPDF({ pageSize: 'A7' })).toThrow('Invalid pageSize A7');
    expect(() => contents.printToPDF({ pageSize: { width: 8 } })).toThrow('width and height properties are required for pageSize');
    expect(() => contents.printToPDF({ pageSize: 'a4', margins: { top: 12 } })).toThrow('margins must be less than or equal to pageSize');
    expect(() => contents.printToPDF({ printBackground: 'yes' })).toThrow('printBackground must be a boolean');
    expect(() => contents.printToPDF({ margins: { left: true } })).toThrow('margins.left must be a number');
    // As in Electron: a string margin compares as NaN, so it fails the size check first; null is the default.
    expect(() => contents.printToPDF({ margins: { left: '1cm' } })).toThrow('margins must be less than or equal to pageSize');
    await expect(contents.printToPDF({ landscape: null, margins: null })).resolves.toBeInstanceOf(Buffer);
    await expect(contents.printToPDF({ pageSize: 'Letter' })).resolves.toBeInstanceOf(Buffer);
  });

  it('the dialog module refuses use before ready and options of the wrong type', () => {
    resetElectron({ ready: false });
    expect(() => fake().dialog.showSaveDialog({ title: 'Save' })).toThrow('dialog module can only be used after app is ready');
    fake().app.ready();
    expect(() => fake().dialog.showSaveDialog({ defaultPath: 7 })).toThrow('Default path must be a string');
  });
});
