// First: it asks the core for the first screen's data while the rest of the bundle evaluates.
import './lib/early.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { loadInitial } from './state/connect.ts';
import { loadOverviewForFirstScreen } from './state/overview.ts';
import { useRoute } from './state/route.ts';
import { applyTheme, useTheme } from './state/theme.ts';
import './styles/index.css';

applyTheme(useTheme.getState().theme);

/** The longest the first render waits for the first answers (the sign-in state decides the screen) and the first screen's data. */
const FIRST_ANSWERS_WAIT_MS = 100;

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
// The sign-in state, sync status, settings and breach-data checks were asked for before the bundle evaluated
// (early.ts), so their answers are usually in by now: the first render waits for them briefly
// and draws the screen they decide, instead of a spinner first and that screen a frame later.
const initialLoad = loadInitial();
// The overview's figures too, when it is the first screen (asked with the first answers in a
// browser; early.ts): drawn in the first frame instead of a skeleton that a second render
// replaces just as the person reaches for the navigation.
const firstScreen = useRoute.getState().route.screen === 'overview' ? loadOverviewForFirstScreen() : undefined;
await Promise.race([Promise.all([initialLoad, firstScreen]), new Promise((resolve) => setTimeout(resolve, FIRST_ANSWERS_WAIT_MS))]);
createRoot(root).render(
  <StrictMode>
    <App initialLoad={initialLoad} />
  </StrictMode>,
);
