// First: it asks the core for the first screen's data while the rest of the bundle evaluates.
import './lib/early.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { applyTheme, useTheme } from './state/theme.ts';
import './styles/index.css';

applyTheme(useTheme.getState().theme);

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
