/**
 * The guided fix's words, all in one place: which data classes belong to which group, and what
 * a person should do about each. Components never write advice of their own.
 *
 * `{site}` is replaced by the breached site's domain (or "the breached site" when the catalog
 * names none, or "each site" when a step covers several breaches). A step with `when` is shown
 * only when the breach exposed one of those classes (names in any spelling: matched by data class identity, `dataClassKey`).
 */
export const FIX_GROUP_IDS = ['high-risk', 'passwords', 'contact', 'other'] as const;
export type FixGroupId = (typeof FIX_GROUP_IDS)[number];

export interface FixStep {
  id: string;
  text: string;
  when?: readonly string[];
  /** The step is done at the breached site: link to its domain. */
  linkToSite?: boolean;
}

export interface FixGroupSpec {
  id: FixGroupId;
  title: string;
  /** Why the group matters, in one sentence. */
  why: string;
  /** Data classes of this group (matched by `dataClassKey`). `other` takes whatever no group names. */
  dataClasses: readonly string[];
  steps: readonly FixStep[];
}

const CARDS_AND_BANK = [
  'credit cards',
  'partial credit card data',
  'credit card cvv',
  'bank account numbers',
  'payment methods',
  'payment histories',
  'account balances',
  'financial transactions',
  'loan information',
  'financial investments',
];
const IDENTITY_DOCUMENTS = ['government issued ids', 'social security numbers', 'passport numbers', "driver's licenses", 'taxation records', 'tax numbers', 'credit status information'];
const SECRETS = ['pins', 'cryptocurrency wallet addresses', 'encrypted keys', 'mnemonic phrases', 'biometric data'];

export const FIX_GROUPS: readonly FixGroupSpec[] = [
  {
    id: 'high-risk',
    title: 'High-risk data',
    why: 'Cards, bank accounts, identity documents and PINs can be used to take money or open accounts in your name.',
    dataClasses: [...CARDS_AND_BANK, ...IDENTITY_DOCUMENTS, ...SECRETS],
    steps: [
      {
        id: 'call-bank',
        text: 'Call your bank or card issuer about every card and account you used at {site}: ask for a new card number, and check your statements for payments you don’t recognise.',
        when: CARDS_AND_BANK,
      },
      {
        id: 'freeze-credit',
        text: 'Freeze your credit with each credit bureau, so nobody can open an account in your name. You can lift the freeze when you apply for credit yourself.',
        when: [...IDENTITY_DOCUMENTS, 'credit cards', 'bank account numbers'],
      },
      { id: 'report-id', text: 'Tell the agency that issued the exposed document (passport office, tax office, licensing office); some issue a new number after a breach.', when: IDENTITY_DOCUMENTS },
      { id: 'change-pin', text: 'Change every PIN that was exposed, and don’t use it anywhere else.', when: ['pins'] },
      {
        id: 'move-keys',
        text: 'Move funds to a new wallet and stop using keys or recovery phrases that were exposed: they cannot be changed, only replaced.',
        when: ['cryptocurrency wallet addresses', 'encrypted keys', 'mnemonic phrases'],
      },
    ],
  },
  {
    id: 'passwords',
    title: 'Passwords and security questions',
    why: 'With a password or a security answer, someone can sign in as you, at this site and wherever you used the same one.',
    dataClasses: ['passwords', 'historical passwords', 'password hints', 'password strengths', 'security questions and answers', 'auth tokens', 'mothers maiden names', 'recovery email addresses'],
    steps: [
      { id: 'change-password', text: 'Change your password at {site}.', linkToSite: true },
      { id: 'reused', text: 'Change it everywhere you used the same or a similar password. A password manager gives each site its own.' },
      { id: 'two-step', text: 'Turn on two-step verification at {site} and for your email account, so a password alone is not enough.', linkToSite: true },
      {
        id: 'security-answers',
        text: 'Change your security questions’ answers wherever you used the same ones; treat them like passwords (they need not be true).',
        when: ['security questions and answers', 'mothers maiden names', 'password hints'],
      },
      { id: 'sessions', text: 'Sign out of every other session at {site}, so stolen sign-in tokens stop working.', when: ['auth tokens'], linkToSite: true },
    ],
  },
  {
    id: 'contact',
    title: 'Contact data',
    why: 'Your email, phone number and address let scammers write to you with details that make their messages believable.',
    dataClasses: ['email addresses', 'phone numbers', 'partial phone numbers', 'physical addresses'],
    steps: [
      {
        id: 'phishing',
        text: 'Expect phishing that mentions {site} or this breach. Open the site yourself instead of following links, and never give a password or code to someone who contacts you.',
      },
      { id: 'calls', text: 'Treat unexpected calls and texts asking for codes or payments as scams; your number was exposed.', when: ['phone numbers', 'partial phone numbers'] },
      { id: 'post', text: 'Watch your post for letters about accounts or deliveries you don’t recognise.', when: ['physical addresses'] },
      { id: 'spam', text: 'Mark spam as spam rather than answering or unsubscribing; consider a separate address (an alias) for new sign-ups.', when: ['email addresses'] },
    ],
  },
  {
    id: 'other',
    title: 'Everything else',
    why: 'Other personal details help someone pretend to be you or guess your answers elsewhere.',
    dataClasses: [],
    steps: [
      { id: 'review-account', text: 'Review what {site} keeps about you; close the account if you no longer use it.', linkToSite: true },
      { id: 'be-wary', text: 'Be wary of messages that use these details to sound trustworthy, and of security questions whose answers were exposed.' },
    ],
  },
];

/**
 * What to do about Have I Been Pwned's stealer logs: an infostealer (malware) on a computer read
 * the passwords a browser kept and sent them off with the site each was for. Unlike a breach,
 * the leak is on the person's own device, so the device comes first. `{site}` is one captured
 * website's domain.
 */
export const STEALER_LOG_FIX = {
  title: 'Passwords an infostealer captured',
  why: 'Malware on a computer you used read the passwords your browser saved and sent them, with the website each was for, to criminals.',
  steps: [
    {
      id: 'clean-device',
      text: 'First clean the computer you sign in from: scan it with up-to-date security software, or reset it. Until then, a new password typed on it can be captured too.',
    },
    { id: 'change-captured', text: 'Then, from a clean device, change your password at {site}, and wherever you used the same one.', linkToSite: true },
    { id: 'sign-out-everywhere', text: 'Sign out of every session at {site} (“sign out everywhere”): infostealers take sign-in cookies as well as passwords.', linkToSite: true },
    { id: 'two-step', text: 'Turn on two-step verification at {site}, and for your email account.', linkToSite: true },
  ] satisfies readonly FixStep[],
} as const;
