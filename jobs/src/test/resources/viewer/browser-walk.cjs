// Drives the viewer in Chromium as a user would (ViewerBrowserIntegrationTests runs it):
// signs in from the address `viewer --url` printed, opens every page through the navigation,
// searches, opens a memory and finds its evidence in <mark>, watches a new event appear on the
// open timeline once ingested, forgets a memory with confirmation and sees it gone.
// Prints one JSON line with what it saw; screenshots go to SHOTS. Exits 1 on the first failure.
'use strict';
const { chromium } = require(process.env.PLAYWRIGHT_CORE);
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const signIn = process.env.VIEWER_URL;
const shots = process.env.SHOTS;
const base = new URL(signIn).origin;
const seen = { loads: {}, pages: [] };

async function shot(page, name) {
  await page.screenshot({ path: path.join(shots, name + '.png'), fullPage: true });
}

// Waits for the navigation the action causes: waitForLoadState alone resolves at once on
// the page that is already loaded, and what follows would read the old page.
async function follow(page, action) {
  const navigated = page.waitForNavigation({ waitUntil: 'load', timeout: 20000 });
  await action();
  await navigated;
}

async function nav(page, label) {
  const started = Date.now();
  await follow(page, () => page.click(`header nav >> text="${label}"`));
  seen.loads[label] = Date.now() - started;
  seen.pages.push(label);
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    const problems = [];
    seen.problems = problems;
    page.on('console', (m) => { if (m.type() === 'error') { problems.push(m.text()); } });

    let started = Date.now();
    await page.goto(signIn);
    seen.loads.Timeline = Date.now() - started;
    seen.signedInAt = page.url();
    seen.stories = await page.locator('#timeline section.story').count();
    // each session's header comes first in its section, its goal first in the header
    seen.firstChildIsGoal = await page.locator('#timeline section.story').first().locator(':scope > h2.goal').count();
    seen.firstGoal = await page.locator('#timeline section.story h2.goal').first().textContent();
    seen.latestItems = await page.locator('#timeline section.story ol.latest li').count();
    seen.timelineText = await page.locator('main').innerText();
    await shot(page, 'timeline');

    await nav(page, 'Search');
    await page.fill('input[name=q]', 'checkout tests');
    await follow(page, () => page.press('input[name=q]', 'Enter'));
    seen.results = await page.locator('ol.results li').count();
    seen.band = await page.locator('#outcome').getAttribute('data-match');
    seen.searchText = await page.locator('main').innerText();
    await shot(page, 'search');

    await follow(page, () => page.locator('ol.results li a').first().click());
    seen.citation = (await page.locator('#citation').textContent()).trim();
    seen.marks = await page.locator('.evidence mark').count();
    seen.firstMark = await page.locator('.evidence mark').first().textContent();
    await shot(page, 'memory');
    const sessionLink = page.locator('dl.facts a[href^="/session/"]');
    if (await sessionLink.count() > 0) {
      await follow(page, () => sessionLink.first().click());
      seen.sessionEvents = await page.locator('ol.events li').count();
      seen.sessionGoal = await page.locator('#story .goal').textContent();
      seen.sessionText = await page.locator('main').innerText();
      seen.sessionMarkup = await page.locator('main').innerHTML();
      await shot(page, 'session');
    }

    // a word no memory holds: "nothing matches", the near misses only when asked for
    await page.goto(base + '/search?q=kubernetes');
    seen.nothing = await page.locator('#outcome').textContent();
    seen.nothingResults = await page.locator('ol.results li').count();
    seen.nothingForget = await page.locator('button.danger').count();
    await shot(page, 'search-nothing');
    if (await page.locator('#near-misses').count() > 0) {
      await follow(page, () => page.click('#near-misses'));
      seen.nearMisses = await page.locator('ol.results li').count();
    }

    await nav(page, 'Tasks');
    seen.taskCards = await page.locator('.card').count();
    await shot(page, 'tasks');

    await nav(page, 'Context preview');
    await page.fill('textarea[name=prompt]', 'why did the checkout tests fail on CI?');
    await follow(page, () => page.click('form button'));
    seen.contextBlocks = await page.locator('pre.context').count();
    await shot(page, 'context');

    await nav(page, 'Health');
    seen.chart = await page.locator('svg.chart rect.events').count();
    seen.sentences = await page.locator('#summary p.sentence').count();
    seen.healthText = await page.locator('main').innerText();
    await shot(page, 'health');

    await nav(page, 'Forget');
    await nav(page, 'Timeline');
    // (a locator, not waitForFunction: the page's CSP rightly refuses eval)
    await page.locator('#live', { hasText: /^live$/ }).waitFor({ timeout: 10000 });
    const probe = 'viewer live probe ' + Date.now();
    const hook = JSON.stringify({ session_id: 'viewer-live-0001', cwd: process.env.PROJECT,
      hook_event_name: 'UserPromptSubmit', prompt: probe });
    const env = { ...process.env, CODE_MEMORY_HOME: process.env.HOME_DIR };
    execFileSync(process.env.JAVA, ['-jar', process.env.JAR, 'hook'], { input: hook, env });
    started = Date.now();
    execFileSync(process.env.JAVA, ['-jar', process.env.JAR, '--job=ingest'], { env });
    await page.locator('#timeline section.story li.fresh', { hasText: probe }).waitFor({ timeout: 20000 });
    seen.liveEventMs = Date.now() - started;
    await shot(page, 'timeline-live');

    await page.goto(base + '/memory/' + seen.citation);
    await follow(page, () => page.click('#forget'));
    await follow(page, () => page.click('#preview'));
    seen.preview = await page.locator('#counts').textContent();
    await shot(page, 'forget-preview');
    await follow(page, () => page.click('#confirm'));
    seen.forgot = await page.locator('#outcome').textContent();
    const after = await page.goto(base + '/memory/' + seen.citation);
    seen.afterStatus = after.status();
    seen.gone = await page.locator('#gone').count();
    await shot(page, 'forgotten');
    seen.consoleErrors = problems;
    process.stdout.write(JSON.stringify(seen) + '\n');
  } finally {
    await browser.close();
  }
})().catch((e) => {
  process.stdout.write(JSON.stringify({ ...seen, error: String(e && e.stack || e) }) + '\n');
  process.exit(1);
});
