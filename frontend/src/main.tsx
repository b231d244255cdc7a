import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
// After Mantine's: toasts below the top bar.
import './app/notifications.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { translations } from './app/translations';
import { startI18n } from './lib/i18n';

startI18n(translations);

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
