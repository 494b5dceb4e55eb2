import { readFile } from 'node:fs/promises';
import { appRoutes, type AccountExport } from '@hello/contract';
import { expect, postNewsViaApi, signIn, test, textFile } from './fixtures';

test('Export my data downloads account-export.json with the profile and the news of the user', async ({
  page,
  request,
  user,
}, testInfo) => {
  const item = await postNewsViaApi(request, user, {
    title: 'Mine to export',
    content: 'Part of the download.',
    files: [textFile('exported.txt')],
  });
  await signIn(page, user);
  await page.goto(appRoutes.userProfile);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('account-export.json');
  await expect(page.getByText('Saved as account-export.json', { exact: true })).toBeVisible();

  const saved = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(saved);
  const data = JSON.parse(await readFile(saved, 'utf8')) as AccountExport;
  expect(data.profile.email).toBe(user.email);
  const exported = data.news_items.find((news) => news.id === item.id);
  expect(exported?.title).toBe('Mine to export');
  expect(exported?.files.map((file) => file.name)).toEqual(['exported.txt']);
  expect(data.sessions.some((session) => session.current)).toBe(true);
});
