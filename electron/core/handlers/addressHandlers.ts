import type { HandlerSlice } from './combineHandlers.ts';
import type { AddressBook } from '../addresses/AddressBook.ts';

/** The person's addresses at their service: list, add, remove (after the UI said what goes), verify, send the code again. */
export function createAddressHandlers({ addresses }: { addresses: AddressBook }) {
  return {
    'addresses-get': async ({ refresh }) => (refresh ? addresses.refresh() : addresses.view()),
    'addresses-add': ({ email }) => addresses.add(email),
    'addresses-removal': ({ email }) => addresses.removal(email),
    'addresses-remove': ({ email }) => addresses.remove(email),
    'addresses-verify': ({ email, code }) => addresses.verify(email, code),
    'addresses-resend': ({ email }) => addresses.resend(email),
  } satisfies HandlerSlice;
}
