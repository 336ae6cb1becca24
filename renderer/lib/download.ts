/**
 * Saves text as a file through the page's own download: the browser's download bar in the
 * browser host, the save dialog under Electron. Nothing leaves the machine.
 */
export function downloadText(fileName: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own reference by now; revoking later keeps slow hosts safe.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
