import { createRoot } from 'react-dom/client';
import { App } from './App';
import { readSettings } from './settings';
import './styles.css';

const settings = readSettings();
// The site's accent colour through the CSSOM, which the CSP (no inline styles) allows.
document.documentElement.style.setProperty('--accent', settings.accentColor);
createRoot(document.getElementById('root') as HTMLElement).render(<App settings={settings} />);
