/**
 * The test fixture (`browser.ts`) shares one browser context across a file's tests for its HTTP
 * cache, and promises each test a context as good as fresh: these two tests, run in order, check
 * that promise. The first leaves behind what the app can store (IndexedDB, localStorage, Cache
 * Storage, an open second tab); the second must find none of it, while the app's entry script comes
 * from the cache (it was not fetched again). Run the file, not one test alone: the second needs the
 * first before it.
 */
import { expect, test } from './browser.ts';
import { openApp } from './app.ts';

const probe = 'hp-fixture-probe';

test('a test leaves storage and a second tab behind', async ({ page, context }) => {
  await openApp(page);
  await page.evaluate(async (name) => {
    localStorage.setItem(name, 'left');
    await new Promise<void>((resolve, reject) => {
      const open = indexedDB.open(name, 1);
      open.onupgradeneeded = () => open.result.createObjectStore('s');
      open.onsuccess = () => {
        const tx = open.result.transaction('s', 'readwrite');
        tx.objectStore('s').put('left', 'k');
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      };
      open.onerror = () => reject(open.error);
    });
    await (await caches.open(name)).put('/probe', new Response('left'));
  }, probe);
  const second = await context.newPage();
  await openApp(second);
  expect(context.pages().length).toBe(2);
});

test('the next test of the file finds none of it, and the app’s scripts come from the HTTP cache', async ({ page, context }) => {
  expect(context.pages()).toEqual([page]);
  await openApp(page);
  const left = await page.evaluate(async (name) => {
    const databases = (await indexedDB.databases()).map((d) => d.name);
    return { local: localStorage.getItem(name), idb: databases.includes(name), cache: await caches.has(name), welcomed: localStorage.getItem('hp.welcomed') };
  }, probe);
  expect(left).toEqual({ local: null, idb: false, cache: false, welcomed: '1' });
  // The entry script's body was not downloaded again: served from the cache (the e2e server marks
  // hashed files immutable), or at most revalidated (a 304 moves a few hundred bytes of headers).
  const entry = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => /\/assets\/index-[^/]+\.js$/.test(e.name))
      .map((e) => ({ transferred: (e as PerformanceResourceTiming).transferSize, body: (e as PerformanceResourceTiming).encodedBodySize })),
  );
  expect(entry).toHaveLength(1);
  expect(entry[0]!.body).toBeGreaterThan(100_000);
  expect(entry[0]!.transferred).toBeLessThan(2_000);
});
