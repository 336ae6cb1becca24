import { invoke, toUiError } from '../lib/core.ts';

/** Tells the core the person read the catalog-change notice up to change `upTo`; the error's sentence when it could not. */
export async function dismissCatalogNotice(upTo: number): Promise<string | undefined> {
  try {
    await invoke('catalog-notice-dismiss', { upTo });
    return undefined;
  } catch (error) {
    return toUiError(error).message;
  }
}
