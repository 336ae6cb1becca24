import { YourAddresses } from '../addresses/YourAddresses.tsx';
import { useAuth } from '../../state/auth.ts';

/** Settings → Your addresses: the addresses the person monitors at their service, while an account is open. */
export function AddressesSection() {
  const account = useAuth((s) => s.status?.account);
  if (!account) return null;
  return <YourAddresses intro="The addresses Breach Monitor checks for you. Removing one removes its breaches too, at the service and on this computer." />;
}
