// code-memory viewer: the little script its pages use (no build step, no library).
// Text from the store is only ever set with textContent, never as markup.
'use strict';

// Who an event's words are, as the server's pages say it (SessionPages.who).
function who(type) {
  if (type === 'UserPromptSubmit') { return 'you'; }
  if (type === 'Stop' || type === 'SubagentStop') { return 'Claude'; }
  if (type === 'PostToolUseFailure') { return 'failed'; }
  return 'tool';
}

function timelineItem(item) {
  const li = document.createElement('li');
  li.className = 'fresh';
  const time = document.createElement('time');
  time.title = item.ts;
  time.textContent = (item.ts || '').substring(11, 16);
  li.appendChild(time);
  li.appendChild(document.createTextNode(' '));
  const label = document.createElement('span');
  label.className = 'who';
  label.textContent = item.kind === 'memory' ? 'kept' : who(item.type);
  li.appendChild(label);
  li.appendChild(document.createTextNode(' '));
  if (item.kind === 'memory') {
    const link = document.createElement('a');
    link.href = '/memory/' + encodeURIComponent(item.id).replace('%3A', ':');
    link.textContent = item.type + ': ' + (item.text || item.id);
    li.appendChild(link);
  } else {
    li.appendChild(document.createTextNode(item.text || item.type));
  }
  return li;
}

// The section of the item's session, made (at the top) when the session is new.
function storyOf(list, item) {
  for (const section of list.querySelectorAll('section.story')) {
    if (section.dataset.session === item.session_id) {
      return section;
    }
  }
  const section = document.createElement('section');
  section.className = 'story';
  section.dataset.session = item.session_id || '';
  const heading = document.createElement('h2');
  heading.className = 'goal';
  const link = document.createElement('a');
  link.href = '/session/' + encodeURIComponent(item.session_id || '');
  link.textContent = item.type === 'UserPromptSubmit' && item.text ? item.text : 'A new session';
  heading.appendChild(link);
  section.appendChild(heading);
  const latest = document.createElement('ol');
  latest.className = 'latest';
  section.appendChild(latest);
  list.insertBefore(section, list.firstChild);
  const empty = document.getElementById('empty');
  if (empty) { empty.remove(); }
  return section;
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
    if (item.kind === 'event' && !['UserPromptSubmit', 'Stop', 'PostToolUse', 'PostToolUseFailure'].includes(item.type)) {
      return;
    }
    const latest = storyOf(list, item).querySelector('ol.latest');
    latest.insertBefore(timelineItem(item), latest.firstChild);
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
