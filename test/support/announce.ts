// vitest globalSetup: says once per run which browser the browser tests use, or why they are
// skipped and how to enable them (never silently).
import { describeBrowserChoice } from './browser.ts';

export default function announce(): void {
  console.log(describeBrowserChoice());
}
