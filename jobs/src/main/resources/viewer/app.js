// code-memory viewer: the little script its pages use (no build step, no library).
// Text from the store is only ever set with textContent, never as markup.
'use strict';

function timelineItem(item) {
  const li = document.createElement('li');
  li.className = item.kind + ' fresh';
  const time = document.createElement('time');
  time.textContent = item.ts;
  li.appendChild(time);
  li.appendChild(document.createTextNode(' '));
  const kind = document.createElement('span');
  kind.className = 'kind';
  kind.textContent = item.type;
  li.appendChild(kind);
  li.appendChild(document.createTextNode(' '));
  const link = document.createElement('a');
  if (item.kind === 'memory') {
    link.href = '/memory/' + encodeURIComponent(item.id).replace('%3A', ':');
    link.textContent = item.id + ' ' + (item.text || '');
  } else if (item.session_id) {
    link.href = '/session/' + encodeURIComponent(item.session_id);
    link.textContent = item.text || item.type;
  } else {
    link.textContent = item.text || item.type;
  }
  li.appendChild(link);
  return li;
}

function liveTimeline() {
  const list = document.getElementById('timeline');
  if (!list || !window.EventSource) {
    return;
  }
  const params = new URLSearchParams({
    seq: list.dataset.seq || '0',
    memories: list.dataset.memories || '',
    project: list.dataset.project || ''
  });
  const source = new EventSource('/api/stream?' + params.toString());
  const live = document.getElementById('live');
  source.onopen = () => { if (live) { live.textContent = 'live'; } };
  source.onerror = () => { if (live) { live.textContent = 'reconnecting…'; } };
  source.onmessage = (message) => {
    const item = JSON.parse(message.data);
    list.insertBefore(timelineItem(item), list.firstChild);
  };
}

function keyboard() {
  document.addEventListener('keydown', (e) => {
    const typing = ['INPUT', 'TEXTAREA', 'SELECT'].includes(document.activeElement.tagName);
    if (e.key === '/' && !typing) {
      const box = document.querySelector('input[type=search]');
      if (box) {
        e.preventDefault();
        box.focus();
      } else {
        window.location.href = '/search';
      }
    }
  });
}

document.addEventListener('DOMContentLoaded', () => {
  liveTimeline();
  keyboard();
});
