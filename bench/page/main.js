/* ---- The page: its kind's, then the footer ---- */

({ report: reportPage, compare: comparePage, history: historyPage })[data.kind]();
page.appendChild(el('footer', null, 'Made by wis. Charts drawn by ' + data.lib.name + ' ' +
	data.lib.version + ' (' + data.lib.licence + ' licence), inlined in this page, which loads nothing.',
	folded(data.lib.name + "'s licence", el('pre', 'licence', data.lib.text))));
if (!pending.size || !seen)
	ready();
