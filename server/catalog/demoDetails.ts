import type { Breach } from '../../shared/api/index.ts';
import { BreachDetails } from '../../shared/catalog/index.ts';
import { createRng, hashString } from './prng.ts';

/**
 * Where the reference service serves the demo catalog's generated logos. A path, not a URL:
 * a reader resolves `logoPath` against the database's origin (HIBP's are absolute URLs).
 */
export const DEMO_LOGO_PREFIX = '/catalog/logos/';

/** What kind of site a demo name suffix suggests, for the generated description. */
const SITE_KINDS: Record<string, string> = {
  Auto: 'car marketplace',
  Bank: 'online bank',
  Books: 'book community',
  Cast: 'podcast platform',
  Chat: 'chat service',
  Club: 'members club',
  Cloud: 'cloud storage provider',
  Code: 'code hosting service',
  Dating: 'dating site',
  Deals: 'deals site',
  Fit: 'fitness app',
  Food: 'food delivery service',
  Forum: 'discussion forum',
  Games: 'gaming site',
  Gaming: 'gaming community',
  Health: 'health portal',
  Jobs: 'job board',
  Learn: 'online learning platform',
  Mail: 'email provider',
  Market: 'online marketplace',
  Mart: 'online shop',
  Music: 'music streaming service',
  News: 'news site',
  Pay: 'payment service',
  Pets: 'pet supplies shop',
  Photo: 'photo sharing site',
  Recipes: 'recipe site',
  Rent: 'rental marketplace',
  Ride: 'ride sharing app',
  Shop: 'online shop',
  Social: 'social network',
  Store: 'online store',
  Stream: 'streaming service',
  Tickets: 'ticket seller',
  Travel: 'travel booking site',
  Wallet: 'digital wallet',
  ComboList: 'credential list',
  Compilation: 'compilation of earlier breaches',
  Dump: 'data dump',
  Leak: 'data leak',
  Scrape: 'scraped data set',
};

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * Details for a demo catalog breach: a title, a description, a count, a logo and flags of its
 * own. Deterministic per breach id (its own random stream), so the committed demo catalog does
 * not change and a breach added later gets stable details too. Names are the demo's fictional
 * company names; no real company is named.
 */
export function demoBreachDetails(breach: Breach): BreachDetails {
  const rng = createRng(hashString(`details:${breach.id}`));
  const words = splitName(breach.id);
  // The title is the catalog name, as for most of Have I Been Pwned's breaches: the app shows
  // titles where ids were, and the demo's list, headings and graph keep matching the service's ids.
  const title = breach.id;
  const name = words.join(' ');
  const kind = SITE_KINDS[words.find((word) => SITE_KINDS[word]) ?? ''] ?? 'website';
  // Log-uniform from a thousand to two hundred million accounts, like the real catalog's spread.
  const pwnCount = Math.round(Math.exp(Math.log(1_000) + rng.next() * (Math.log(200_000_000) - Math.log(1_000))));
  // Never fabricated, spam list or retired: every demo breach is in the breach-alert catalog, and
  // the app hides those by default, so the demo list would disagree with the service's.
  const flag = rng.next();
  const isMalware = flag < 0.03;
  const isStealerLog = flag >= 0.03 && flag < 0.05;
  const [year, month] = breach.breachDate.split('-').map(Number) as [number, number];
  const classes = breach.dataClasses.map((name) => name.toLowerCase());
  const listed = classes.length > 1 ? `${classes.slice(0, -1).join(', ')} and ${classes.at(-1)}` : (classes[0] ?? 'personal data');
  const site = breach.domain ? `<a href="https://${breach.domain}/" target="_blank" rel="noopener">${name}</a>` : name;
  const description =
    `In ${MONTHS[month - 1]} ${year}, the ${kind} ${site} suffered a data breach that exposed ` + `${pwnCount.toLocaleString('en-US')} accounts. The data included <em>${listed}</em>.`;
  return BreachDetails.parse({
    title,
    domain: breach.domain,
    breachDate: breach.breachDate,
    addedDate: breach.addedDate,
    modifiedDate: breach.modifiedDate,
    pwnCount,
    description,
    logoPath: `${DEMO_LOGO_PREFIX}${encodeURIComponent(breach.id)}.svg`,
    dataClasses: breach.dataClasses,
    isVerified: breach.domain !== '' && rng.chance(0.93),
    isFabricated: false,
    isSensitive: breach.isSensitive,
    isRetired: false,
    isSpamList: false,
    isMalware,
    isStealerLog,
  });
}

/** "AmberBank2019" → ["Amber", "Bank", "2019"]. */
function splitName(id: string): string[] {
  return id.match(/[A-Z][a-z]*|[a-z]+|\d+/g) ?? [id];
}

/**
 * A demo logo: the title's initials on a colour of its own, as SVG. Served by the reference
 * service under {@link DEMO_LOGO_PREFIX}; no text from outside goes into it unescaped.
 */
export function demoLogoSvg(id: string): string {
  const hue = hashString(`logo:${id}`) % 360;
  const initials = splitName(id)
    .filter((word) => !/^\d/.test(word))
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('')
    .replace(/[^A-Z]/g, '');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">` +
    `<rect width="64" height="64" rx="12" fill="hsl(${hue} 55% 42%)"/>` +
    `<text x="32" y="41" font-family="sans-serif" font-size="24" font-weight="700" fill="#fff" text-anchor="middle">${initials}</text>` +
    `</svg>`
  );
}
