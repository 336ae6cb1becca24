import type { AuthStatus } from '../../shared/ipc/views.ts';

/**
 * Where a secret the person saves (an API token, a key) is kept, in words that tell the truth:
 * the core says which store it chose (`secretsKeptIn`), and without a keychain the token lasts
 * only until the app quits. Every form that saves one says it the same way.
 */
export function secretPlace(status: Pick<AuthStatus, 'secretsKeptIn' | 'remembered'> | undefined): { where: string; saved: string } {
  const kind = status?.secretsKeptIn ?? (status?.remembered === false ? 'memory' : undefined);
  switch (kind) {
    case 'keychain':
      return { where: 'Kept in your system’s keychain', saved: 'kept in your system’s keychain' };
    case 'encrypted-file':
      return { where: 'Kept on this computer, encrypted by your system', saved: 'kept on this computer, encrypted by your system' };
    case 'memory':
      return {
        where: 'No keychain is available: kept only until Breach Monitor quits',
        saved: 'kept only until Breach Monitor quits (no keychain is available), so you will enter it again next time',
      };
    default:
      return { where: 'Kept by Breach Monitor', saved: 'kept by Breach Monitor' };
  }
}
