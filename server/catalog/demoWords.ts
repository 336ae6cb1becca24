/**
 * Word lists of the demo catalog. Company names are fictional combinations (prefix + suffix);
 * data class names use Have I Been Pwned's spelling so the demo looks like real data, with
 * weights roughly following how often each class appears in real breaches.
 */

export const COMPANY_PREFIXES: readonly string[] = [
  'Amber', 'Apex', 'Aurora', 'Basalt', 'Beacon', 'Birch', 'Blue', 'Canyon', 'Cedar', 'Cinder',
  'Cobalt', 'Copper', 'Coral', 'Crimson', 'Delta', 'Drift', 'Dune', 'Echo', 'Ember', 'Falcon',
  'Fern', 'Flint', 'Frost', 'Glacier', 'Golden', 'Granite', 'Harbor', 'Hazel', 'Heron', 'Indigo',
  'Iron', 'Ivy', 'Jade', 'Juniper', 'Kestrel', 'Lark', 'Lotus', 'Lumen', 'Maple', 'Marble',
  'Meadow', 'Neon', 'Nimbus', 'Nova', 'Oak', 'Onyx', 'Opal', 'Orbit', 'Pebble', 'Pine',
  'Pixel', 'Prism', 'Quartz', 'Quill', 'Raven', 'Ridge', 'River', 'Sable', 'Saffron', 'Sage',
  'Silver', 'Solar', 'Spruce', 'Starling', 'Summit', 'Swift', 'Terra', 'Thistle', 'Tidal', 'Topaz',
  'Tundra', 'Umber', 'Vapor', 'Velvet', 'Vertex', 'Willow', 'Wren', 'Yonder', 'Zenith', 'Zephyr',
];

export const COMPANY_SUFFIXES: readonly string[] = [
  'Auto', 'Bank', 'Base', 'Board', 'Books', 'Cast', 'Chat', 'Cloud', 'Club', 'Code',
  'Crafts', 'Dating', 'Deals', 'Desk', 'Drive', 'Fit', 'Food', 'Forum', 'Games', 'Gaming',
  'Guild', 'Health', 'Home', 'Hub', 'Jobs', 'Labs', 'Learn', 'Link', 'Mail', 'Market',
  'Mart', 'Mods', 'Music', 'Net', 'News', 'Pay', 'Pets', 'Photo', 'Play', 'Point',
  'Post', 'Press', 'Quest', 'Recipes', 'Rent', 'Ride', 'Shop', 'Social', 'Space', 'Store',
  'Stream', 'Tickets', 'Trade', 'Travel', 'Tube', 'Vault', 'Wallet', 'Wiki', 'Works', 'Zone',
];

/** Sensitive breaches in the real catalog are mostly dating, adult and community sites. */
export const SENSITIVE_SUFFIXES: readonly string[] = ['Chat', 'Club', 'Dating', 'Forum', 'Social'];

/** Used once the prefix × suffix space gets crowded (large benchmark catalogs). */
export const COMPANY_QUALIFIERS: readonly string[] = [
  'Central', 'Connect', 'Direct', 'Express', 'Global', 'Group', 'Online', 'Plus', 'Pro', 'Systems', 'United', 'World',
];

/** Breaches without a domain are typically combo lists and scrapes not tied to one site. */
export const DOMAINLESS_SUFFIXES: readonly string[] = ['ComboList', 'Compilation', 'Dump', 'Leak', 'Scrape'];

export const TLDS: readonly (readonly [tld: string, weight: number])[] = [
  ['com', 60], ['net', 8], ['org', 6], ['io', 6], ['co', 4], ['co.uk', 3], ['de', 3], ['app', 2],
  ['fr', 2], ['com.br', 2], ['ru', 2], ['in', 1], ['jp', 1], ['gg', 1], ['me', 1], ['nl', 1],
];

export const EMAIL_ADDRESSES = 'Email addresses';
export const PASSWORDS = 'Passwords';

/** Every class except Email addresses, which every demo breach has. Passwords' weight is unused: it has its own share. */
export const DATA_CLASS_WEIGHTS: readonly (readonly [name: string, weight: number])[] = [
  [PASSWORDS, 73], ['Usernames', 51], ['Names', 50], ['IP addresses', 42], ['Phone numbers', 32],
  ['Dates of birth', 27], ['Physical addresses', 25], ['Genders', 19], ['Geographic locations', 13],
  ['Website activity', 9], ['Purchases', 7], ['Social media profiles', 6], ['Private messages', 4],
  ['Job titles', 4], ['Employers', 3], ['Partial credit card data', 3], ['Browser user agent details', 3],
  ['Salutations', 2], ['Device information', 2], ['Spoken languages', 2], ['Government issued IDs', 2],
  ['Marital statuses', 2], ['Security questions and answers', 2], ['Password hints', 1.2],
  ['Income levels', 1.5], ['Profile photos', 1.2], ['Education levels', 1.2], ['Auth tokens', 1],
  ['Payment histories', 1], ['Account balances', 1], ['Sexual orientations', 1], ['Credit cards', 1],
  ['Bank account numbers', 1], ['Time zones', 1], ['Historical passwords', 0.6],
  ['Social security numbers', 0.8], ['Passport numbers', 0.8], ['Religions', 1], ['Ethnicities', 1],
  ['Nationalities', 1], ['Vehicle details', 0.7], ['Personal health data', 0.6], ['Email messages', 1],
  ['Instant messenger identities', 1], ['Avatars', 1],
];

/** Classes that make a breach sensitive in practice; boosted for sensitive breaches. */
export const INTIMATE_DATA_CLASSES: ReadonlySet<string> = new Set([
  'Sexual orientations', 'Private messages', 'Personal health data', 'Religions', 'Marital statuses', 'Profile photos',
]);

/** How many classes besides Email addresses (index 0 ↔ 1 class); the real mean is about four. */
export const EXTRA_CLASS_COUNT_WEIGHTS: readonly number[] = [10, 15, 20, 18, 14, 10, 8, 5];

/** Breach years 2008…2025; the real catalog peaks in the late 2010s. */
export const FIRST_BREACH_YEAR = 2008;
export const BREACH_YEAR_WEIGHTS: readonly number[] = [2, 3, 4, 5, 6, 8, 10, 12, 12, 11, 11, 11, 12, 12, 11, 10, 9, 7];
