import { MARK_PATHS } from './layout.ts';

/**
 * The dashboard's one style sheet and one script, served from the dashboard's
 * own routes (`/dashboard/assets/…`) so the CSP allows nothing else. The
 * script only enhances: every page works without it (forms post, secrets are
 * in the page to select and copy by hand).
 */

const STYLE_SHEET = `
/* Tokens: one type scale (1.25 ratio from 16px), one spacing scale, one palette. Every colour of text on
   its background meets 4.5:1 (axe holds it). */
:root {
  color-scheme: light;
  --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --line-strong: #8c959f; --surface: #f6f8fa; --page: #fff;
  --accent: #0b57d0; --accent-dark: #0842a0; --accent-soft: #e8f0fe; --danger: #b42318; --danger-soft: #ffebe9;
  --ok: #116329; --ok-soft: #dafbe1; --warn: #7d4e00; --warn-soft: #fff8c5;
  --text-xs: .8rem; --text-sm: .875rem; --text-md: 1rem; --text-lg: 1.25rem; --text-xl: 1.563rem; --text-2xl: 1.953rem;
  --space-1: .25rem; --space-2: .5rem; --space-3: .75rem; --space-4: 1rem; --space-5: 1.5rem; --space-6: 2rem; --space-7: 3rem;
  --radius: 8px; --shadow: 0 1px 2px rgb(27 31 36 / 8%), 0 4px 16px rgb(27 31 36 / 10%);
  --font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
body { margin: 0; font: var(--text-md)/1.5 var(--font); color: var(--ink); background: var(--page); }
a { color: var(--accent); text-underline-offset: .15em; }
a:hover { color: var(--accent-dark); }
code { font-family: var(--mono); font-size: .9em; background: var(--surface); border-radius: 4px; padding: 0 .25em; overflow-wrap: anywhere; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -10000px; }
.skip:focus { left: var(--space-4); top: var(--space-4); background: var(--page); padding: var(--space-2); z-index: 20; }
.muted { color: var(--muted); }

/* The header: mark, tabs, account menu. One row from 1100px; below, the tabs get a row and scroll in it. */
.top { display: flex; flex-wrap: wrap; align-items: center; column-gap: var(--space-5); padding: 0 var(--space-5); border-bottom: 1px solid var(--line); background: var(--page); }
.brand { display: inline-flex; align-items: center; gap: var(--space-2); padding: var(--space-3) 0; font-size: var(--text-lg); font-weight: 700; color: var(--ink); text-decoration: none; }
.brand:hover { color: var(--ink); }
.mark { flex: none; }
.tabs { order: 3; flex: 1 0 100%; min-width: 0; overflow-x: auto; position: relative; margin: 0 calc(-1 * var(--space-5)); padding: 0 var(--space-3); }
.tabs ul { display: flex; gap: var(--space-1); list-style: none; margin: 0; padding: 0; }
.tabs a { display: block; padding: var(--space-3); white-space: nowrap; font-size: var(--text-sm); font-weight: 500; color: var(--muted); text-decoration: none; border-bottom: 2px solid transparent; }
.tabs a:hover { color: var(--ink); border-bottom-color: var(--line-strong); }
.tabs a[aria-current="page"] { color: var(--accent); border-bottom-color: var(--accent); font-weight: 600; }
.tabs a:focus-visible { outline-offset: -3px; }
.account { order: 2; margin-left: auto; position: relative; min-width: 0; }
.account summary { display: flex; align-items: center; gap: var(--space-2); max-width: 16rem; padding: var(--space-1) var(--space-3); border: 1px solid var(--line); border-radius: 999px; font-size: var(--text-sm); cursor: pointer; list-style: none; }
.account summary span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.account summary::-webkit-details-marker { display: none; }
.account summary::after { content: ""; flex: none; width: .45em; height: .45em; border: solid var(--muted); border-width: 0 2px 2px 0; transform: rotate(45deg) translateY(-2px); }
.account[open] summary { background: var(--surface); }
.account .menu { position: absolute; right: 0; top: calc(100% + var(--space-2)); z-index: 10; width: max-content; max-width: min(20rem, calc(100vw - 2rem)); padding: var(--space-3) var(--space-4); background: var(--page); border: 1px solid var(--line); border-radius: var(--radius); box-shadow: var(--shadow); overflow-wrap: anywhere; }
.account .menu p { margin: 0 0 var(--space-2); font-size: var(--text-sm); }
.account .menu form { margin: var(--space-3) 0 0; }
@media (min-width: 1100px) {
  .top { flex-wrap: nowrap; }
  .tabs { order: 2; flex: 1 1 auto; margin: 0; padding: 0; }
  .tabs a { padding: var(--space-4) var(--space-3); }
  .account { order: 3; }
}

/* The page */
main { max-width: 75rem; margin: 0 auto; padding: var(--space-5); }
main:focus { outline: none; }
h1 { font-size: var(--text-2xl); line-height: 1.2; margin: var(--space-2) 0 var(--space-5); }
h2 { font-size: var(--text-lg); line-height: 1.3; margin: var(--space-6) 0 var(--space-3); }
p { margin: 0 0 var(--space-4); }
@media (max-width: 40rem) {
  .top { padding: 0 var(--space-4); column-gap: var(--space-3); }
  .brand { font-size: var(--text-md); }
  .account summary { max-width: 58vw; }
  .tabs { margin: 0 calc(-1 * var(--space-4)); padding: 0 var(--space-2); }
  main { padding: var(--space-4); }
  h1 { font-size: var(--text-xl); }
  /* A wide table scrolls in its box rather than squeezing each cell to a word a line. */
  td, tbody th { min-width: 8rem; }
  td.number { min-width: 0; }
}

/* Tables scroll sideways inside their own box (a focusable region), never the page. */
.table-scroll { overflow-x: auto; margin: var(--space-2) 0 var(--space-5); border: 1px solid var(--line); border-radius: var(--radius); }
.table-scroll:focus-visible { outline-offset: 0; }
table { border-collapse: collapse; width: 100%; font-size: var(--text-sm); }
caption { text-align: left; padding: var(--space-3) var(--space-4); color: var(--muted); font-size: var(--text-sm); caption-side: top; }
th, td { text-align: left; padding: var(--space-2) var(--space-4); border-top: 1px solid var(--line); vertical-align: top; }
thead th { font-weight: 600; background: var(--surface); white-space: nowrap; }
tbody th { font-weight: 600; }
tbody tr:hover { background: #fafbfc; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }

/* Forms and buttons: secondary by default, .primary for the page's main action, .danger for what cannot be undone. */
form.inline { display: inline; }
form:not(.inline) { margin: 0 0 var(--space-4); }
fieldset { border: 1px solid var(--line); border-radius: var(--radius); padding: var(--space-3) var(--space-4); margin: 0 0 var(--space-4); max-width: 40rem; }
legend { font-weight: 600; padding: 0 var(--space-1); }
label { display: block; margin: var(--space-3) 0 var(--space-1); font-weight: 600; font-size: var(--text-sm); }
label.check { display: inline-flex; gap: var(--space-2); align-items: center; font-weight: 400; margin: var(--space-1) var(--space-4) var(--space-1) 0; font-size: var(--text-md); }
input[type=text], input[type=url], input[type=number], input[type=email], input[type=password], select {
  width: 100%; max-width: 32rem; min-height: 2.5rem; padding: var(--space-2) var(--space-3); border: 1px solid var(--line-strong); border-radius: 6px; font: inherit; background: var(--page); color: var(--ink);
}
input:focus-visible, select:focus-visible { outline-offset: 0; border-color: var(--accent); }
input[type=checkbox] { width: 1.1rem; height: 1.1rem; accent-color: var(--accent); }
button { display: inline-flex; align-items: center; gap: var(--space-2); min-height: 2.25rem; padding: var(--space-1) var(--space-4); border: 1px solid var(--line-strong); border-radius: 6px; background: var(--page); color: var(--ink); font: inherit; font-size: var(--text-sm); font-weight: 600; cursor: pointer; }
button:hover { background: var(--surface); }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button.primary:hover { background: var(--accent-dark); border-color: var(--accent-dark); }
button.danger { color: var(--danger); border-color: var(--danger); }
button.danger:hover { background: var(--danger); color: #fff; }
form:not(.inline) > button, form:not(.inline) > p > button { margin-top: var(--space-3); }
.actions { display: flex; flex-wrap: wrap; gap: var(--space-2); margin: var(--space-3) 0 var(--space-4); }

/* Notices, secrets shown once, badges */
.notice { padding: var(--space-3) var(--space-4); border-radius: var(--radius); margin: 0 0 var(--space-4); border: 1px solid; }
.notice.ok { border-color: var(--ok); color: var(--ok); background: var(--ok-soft); }
.notice.error { border-color: var(--danger); color: var(--danger); background: var(--danger-soft); }
.secret { display: flex; gap: var(--space-2) var(--space-3); align-items: center; flex-wrap: wrap; padding: var(--space-3) var(--space-4); border: 2px solid var(--accent); border-radius: var(--radius); background: var(--accent-soft); margin: 0 0 var(--space-4); }
.secret code { font-size: var(--text-md); word-break: break-all; background: var(--page); }
.badge { display: inline-block; padding: 0 var(--space-2); border: 1px solid; border-radius: 999px; font-size: var(--text-xs); font-weight: 600; white-space: nowrap; }
.badge.ok { color: var(--ok); background: var(--ok-soft); } .badge.failing { color: var(--danger); background: var(--danger-soft); }
.badge.off { color: var(--muted); background: var(--surface); }
.status-ok { color: var(--ok); } .status-failed { color: var(--danger); }

/* The overview: figures as cards, and the chart of contacts by status */
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(10rem, 1fr)); gap: var(--space-3); margin: 0 0 var(--space-4); padding: 0; list-style: none; }
.cards li { border: 1px solid var(--line); border-radius: var(--radius); padding: var(--space-3) var(--space-4); font-size: var(--text-sm); color: var(--muted); }
.cards .value { display: block; font-size: var(--text-xl); font-weight: 700; color: var(--ink); font-variant-numeric: tabular-nums; }
.cards .detail { display: block; font-size: var(--text-xs); }
figure { margin: 0 0 var(--space-4); }
.bars { display: grid; gap: var(--space-2); }
.bars .bar { display: grid; grid-template-columns: minmax(8rem, 14rem) 1fr; gap: var(--space-1) var(--space-4); align-items: center; font-size: var(--text-sm); }
.bars .bar-label { overflow-wrap: anywhere; }
.bars svg { display: block; width: 100%; height: 1.25rem; }
@media (max-width: 40rem) { .bars .bar { grid-template-columns: 1fr; } }
figcaption { margin-top: var(--space-3); color: var(--muted); font-size: var(--text-sm); }
.legend { display: flex; flex-wrap: wrap; gap: var(--space-1) var(--space-4); list-style: none; padding: 0; margin: var(--space-2) 0 0; font-size: var(--text-sm); }
.swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; margin-right: var(--space-1); vertical-align: middle; }
.s-pending-approval { background: #bf8700; } .s-scheduled { background: #0969da; } .s-in-progress { background: #8250df; }
.s-completed { background: #57606a; } .s-replied { background: #1a7f37; } .s-bounced { background: #cf222e; } .s-unsubscribed { background: #e16f24; }
.org-list { list-style: none; padding: 0; display: grid; gap: var(--space-2); max-width: 32rem; }
.org-list button { width: 100%; justify-content: space-between; min-height: 3rem; }
`;

const SCRIPT = `
// On a narrow screen the tabs scroll in their row: bring the current page's tab into view.
const currentTab = document.querySelector('.tabs a[aria-current="page"]');
const tabs = currentTab?.closest('.tabs');
if (currentTab && tabs && tabs.scrollWidth > tabs.clientWidth)
  tabs.scrollLeft = currentTab.offsetLeft - (tabs.clientWidth - currentTab.offsetWidth) / 2;
// Copy buttons: <button data-copy="id"> copies the text of #id.
for (const button of document.querySelectorAll('button[data-copy]')) {
  button.hidden = false;
  button.addEventListener('click', async () => {
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    try {
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Select and copy by hand';
    }
  });
}
// Destructive buttons ask first: <button data-confirm="Revoke key 4?">.
for (const button of document.querySelectorAll('button[data-confirm]')) {
  button.addEventListener('click', (event) => {
    if (!window.confirm(button.dataset.confirm)) event.preventDefault();
  });
}
// "Select all" checkboxes: <input type=checkbox data-select-all="name">.
for (const box of document.querySelectorAll('input[data-select-all]')) {
  box.hidden = false;
  box.closest('label')?.removeAttribute('hidden');
  box.addEventListener('change', () => {
    for (const item of document.querySelectorAll('input[type=checkbox][name="' + box.dataset.selectAll + '"]')) {
      item.checked = box.checked;
    }
  });
}
`;

/** The header's mark as the favicon, so a browser asking for an icon gets one from the dashboard itself. */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">${MARK_PATHS}</svg>`;

export const DASHBOARD_ASSETS: Record<string, { contentType: string; body: string }> = {
  'icon.svg': { contentType: 'image/svg+xml', body: ICON },
  'app.css': { contentType: 'text/css; charset=utf-8', body: STYLE_SHEET },
  'app.js': { contentType: 'text/javascript; charset=utf-8', body: SCRIPT },
};
