// The dashboard in the browser: the app rendered into the page's #app.
import { render } from 'preact';
import { App } from './app.js';
import './styles.css';

const root = document.getElementById('app')!;
// The page's static "Loading…" goes: Preact 11's render keeps children it did not make.
root.replaceChildren();
render(<App />, root);
