// The event debugger: one workspace's events, live, with how each session was found and what each network was sent
// and answered; and its funnel report as a table, a chart and a CSV file. Plain DOM in ES modules, one a view, no
// build step: every value from the API is set as text (textContent), never parsed as HTML, the chart is SVG drawn
// here, and the page's Content-Security-Policy allows only these scripts and their stylesheet. A module runs once the
// page is parsed, so the page starts here.
import { setUpEvents } from './events.js';
import { setUpFunnel } from './funnel.js';
import { resume, setUpShell } from './shell.js';

setUpEvents();
setUpFunnel();
setUpShell();
resume();
