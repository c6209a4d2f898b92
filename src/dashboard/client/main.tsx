// The dashboard in the browser: the app rendered into the page's #app.
import { render } from 'preact';
import { App } from './app.js';
import './styles.css';

render(<App />, document.getElementById('app')!);
