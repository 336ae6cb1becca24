import { dataClassKey } from './primitives.ts';

/**
 * Have I Been Pwned's data class names (https://haveibeenpwned.com/api/v3/dataclasses, CC BY 4.0),
 * the display names a breach-alert service that speaks slugs (Mozilla Monitor: `email-addresses`)
 * means. Used only to show a slug readably; matching goes by {@link dataClassKey} alone.
 */
export const KNOWN_DATA_CLASSES: readonly string[] = [
  'Account balances', 'Address book contacts', 'Age groups', 'Ages', 'Appointments',
  'Apps installed on devices', 'Astrological signs', 'Audio recordings', 'Auth tokens', 'Avatars',
  'Bank account numbers', 'Beauty ratings', 'Biometric data', 'Bios', 'Browser user agent details',
  'Browsing histories', 'Buying preferences', 'Car ownership statuses', 'Career levels',
  'Cellular network names', 'Charitable donations', 'Chat logs', 'Citizenship statuses', 'Clothing sizes',
  'Credit card CVV', 'Credit cards', 'Credit status information', 'Cryptocurrency wallet addresses',
  'Customer feedback', 'Customer interactions', 'Dates of birth', 'Deceased date', 'Deceased statuses',
  'Delivery instructions', 'Device information', 'Device serial numbers', 'Device usage tracking data',
  'Drinking habits', "Driver's licenses", 'Drug habits', 'Eating habits', 'Education levels',
  'Email addresses', 'Email messages', 'Employers', 'Employment statuses', 'Encrypted keys', 'Ethnicities',
  "Family members' names", 'Family structure', 'Financial investments', 'Financial transactions',
  'Fitness levels', 'Flights taken', 'Genders', 'Geographic locations', 'Government issued IDs',
  'HIV statuses', 'Health insurance information', 'Historical passwords', 'Home ownership statuses',
  'Homepage URLs', 'IMEI numbers', 'IMSI numbers', 'IP addresses', 'Income levels',
  'Instant messenger identities', 'Job applications', 'Job titles', 'Licence plates', 'Living costs',
  'Loan information', 'Login histories', 'Loyalty program details', 'MAC addresses', 'Marital statuses',
  'Mnemonic phrases', 'Mothers maiden names', 'Names', 'Nationalities', 'Net worths', 'Nicknames',
  'Occupations', 'PINs', 'Parenting plans', 'Partial credit card data', 'Partial dates of birth',
  'Partial phone numbers', 'Passport numbers', 'Password hints', 'Password strengths', 'Passwords',
  'Payment histories', 'Payment methods', 'Personal descriptions', 'Personal health data',
  'Personal interests', 'Phone numbers', 'Photos', 'Physical addresses', 'Physical attributes',
  'Places of birth', 'Political donations', 'Political views', 'Private messages', 'Professional skills',
  'Profile photos', 'Purchases', 'Purchasing habits', 'Races', 'Recovery email addresses',
  'Relationship statuses', 'Religions', 'Reward program balances', 'SMS messages', 'Salutations',
  'School grades (class levels)', 'Security questions and answers', 'Sexual fetishes', 'Sexual orientations',
  'Smoking habits', 'Social connections', 'Social media profiles', 'Social security numbers',
  'Spoken languages', 'Spouses names', 'Support tickets', 'Survey results', 'Taxation records',
  'Telecommunications carrier', 'Time zones', 'Travel habits', 'User statuses', 'User website URLs',
  'Usernames', 'Utility bills', 'Vehicle details', 'Vehicle identification numbers (VINs)',
  'Website activity', 'Work habits', 'Years of professional experience',
];

const KNOWN_BY_KEY: ReadonlyMap<string, string> = new Map(KNOWN_DATA_CLASSES.map((name) => [dataClassKey(name), name]));

/**
 * How to show a data class a service named `name`. A display name (anything that is not in
 * slug form) is shown as the service spelled it; a slug is shown as the Have I Been Pwned name
 * it stands for (`email-addresses` → `Email addresses`), or, for one that list does not know,
 * readably: dashes to spaces, first letter upper case (`shoe-sizes` → `Shoe sizes`). The label
 * names the same class as `name` (same {@link dataClassKey}), so it can be sent back as is.
 */
export function dataClassLabel(name: string): string {
  const key = dataClassKey(name);
  if (key === '' || name !== key) return name;
  const known = KNOWN_BY_KEY.get(key);
  if (known !== undefined) return known;
  const words = key.replace(/-/g, ' ');
  const readable = words.charAt(0).toUpperCase() + words.slice(1);
  // Upper-casing can change a letter's identity (`ß` → `SS`); the label must name the same class.
  return dataClassKey(readable) === key ? readable : words;
}
