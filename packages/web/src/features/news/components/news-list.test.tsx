import { apiPaths, appRoutes } from '@hello/contract';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  deferred,
  headerOf,
  jsonResponse,
  mockFetch,
  renderRoute,
  signedIn,
  spyConsoleError,
} from '../../../../test/helpers';
import { newsItem } from '../../../../test/news';
import NewsRoute from '@/app/routes/news';

const next = (before: string) => ({ Link: `<${apiPaths.localNews}?limit=2&before=${before}>; rel="next"` });
const titles = () =>
  within(screen.getByRole('list', { name: 'News, newest first' }))
    .getAllByRole('link')
    .map((a) => a.textContent);

describe('all news (/news)', () => {
  beforeEach(() => signedIn());

  it('shows a page with links to each item, author, date and file count; Older items follows the Link header until the last page', async () => {
    const consoleError = spyConsoleError();
    const fetchMock = mockFetch((url) => {
      if (url === apiPaths.localNews) return jsonResponse(200, [newsItem(9), newsItem(8)], next('p2'));
      if (url === `${apiPaths.localNews}?limit=2&before=p2`)
        return jsonResponse(200, [newsItem(7), newsItem(6)], next('p3'));
      // The last page repeats an item: it is shown once, and the keys stay unique.
      if (url === `${apiPaths.localNews}?limit=2&before=p3`) return jsonResponse(200, [newsItem(6), newsItem(5)]);
      return jsonResponse(404);
    });
    const { user } = renderRoute(<NewsRoute />, { path: appRoutes.news });

    const first = await screen.findByRole('link', { name: 'Title 9' });
    expect(first).toHaveAttribute('href', '/news/9');
    const row = first.closest('li')!;
    expect(row).toHaveTextContent('author@example.com');
    expect(row).toHaveTextContent('1 file');
    expect(row.querySelector('time')).toHaveAttribute('dateTime', newsItem(9).created_at);

    await user.click(screen.getByRole('button', { name: 'Older items' }));
    expect(await screen.findByRole('link', { name: 'Title 7' })).toHaveFocus();
    expect(titles()).toEqual(['Title 9', 'Title 8', 'Title 7', 'Title 6']);

    await user.click(screen.getByRole('button', { name: 'Older items' }));
    expect(await screen.findByRole('link', { name: 'Title 5' })).toHaveFocus();
    expect(titles()).toEqual(['Title 9', 'Title 8', 'Title 7', 'Title 6', 'Title 5']);
    expect(screen.queryByRole('button', { name: 'Older items' })).not.toBeInTheDocument();
    expect(screen.getByText('5 items in all')).toBeInTheDocument();

    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      apiPaths.localNews,
      `${apiPaths.localNews}?limit=2&before=p2`,
      `${apiPaths.localNews}?limit=2&before=p3`,
    ]);
    for (const [, init] of fetchMock.mock.calls) {
      expect(headerOf(init, 'Authorization')).toBe('Bearer acc');
      expect(init?.credentials).toBe('include');
    }
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('says Loading ... while an older page loads, and keeps the items shown', async () => {
    const older = deferred<Response>();
    mockFetch((url) => (url === apiPaths.localNews ? jsonResponse(200, [newsItem(2)], next('x')) : older.promise));
    const { user } = renderRoute(<NewsRoute />, { path: appRoutes.news });
    const button = await screen.findByRole('button', { name: 'Older items' });
    // The live region is there, holding the count, before `Loading ...` is put in it.
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('The newest 1 item');
    await user.click(button);
    expect(screen.getByRole('status')).toBe(status);
    expect(status).toHaveTextContent('Loading ...');
    expect(screen.getByRole('button', { name: 'Older items' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('link', { name: 'Title 2' })).toBeInTheDocument();
    older.resolve(jsonResponse(200, [newsItem(1)]));
    expect(await screen.findByRole('link', { name: 'Title 1' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toBe(status);
    expect(status).toHaveTextContent('2 items in all');
    expect(screen.queryByText('Loading ...')).not.toBeInTheDocument();
  });

  it('keeps the list and the button when an older page fails', async () => {
    spyConsoleError();
    mockFetch((url) => (url === apiPaths.localNews ? jsonResponse(200, [newsItem(2)], next('x')) : jsonResponse(500)));
    const { user } = renderRoute(<NewsRoute />, { path: appRoutes.news });
    await user.click(await screen.findByRole('button', { name: 'Older items' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Older items could not be loaded.');
    expect(screen.getByRole('link', { name: 'Title 2' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Older items' })).not.toHaveAttribute('aria-disabled');
    // Under the button that keeps focus, so that it does not push the button down out of view.
    const position = screen
      .getByRole('button', { name: 'Older items' })
      .compareDocumentPosition(screen.getByRole('alert'));
    expect(position & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows Loading ... until the first page arrives', async () => {
    const answer = deferred<Response>();
    mockFetch(() => answer.promise);
    renderRoute(<NewsRoute />, { path: appRoutes.news });
    expect(screen.getByRole('status')).toHaveTextContent('Loading ...');
    answer.resolve(jsonResponse(200, [newsItem(1)]));
    expect(await screen.findByRole('link', { name: 'Title 1' })).toBeInTheDocument();
    expect(screen.queryByText('Loading ...')).not.toBeInTheDocument();
  });

  it('says there is no news yet, with a link to add some', async () => {
    mockFetch(() => jsonResponse(200, []));
    renderRoute(<NewsRoute />, { path: appRoutes.news });
    expect(await screen.findByText(/No news yet/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add the first item' })).toHaveAttribute('href', appRoutes.addLocalNews);
    expect(screen.queryByRole('button', { name: 'Older items' })).not.toBeInTheDocument();
  });

  it('shows an error with Retry, which loads the list again', async () => {
    const consoleError = spyConsoleError();
    let calls = 0;
    mockFetch(() => (++calls === 1 ? jsonResponse(500, { detail: 'boom' }) : jsonResponse(200, [newsItem(3)])));
    const { user } = renderRoute(<NewsRoute />, { path: appRoutes.news });
    expect(await screen.findByRole('alert')).toHaveTextContent('The news could not be loaded.');
    expect(consoleError).toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Title 3' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the note another page left, e.g. after a deletion', async () => {
    mockFetch(() => jsonResponse(200, []));
    renderRoute(<NewsRoute />, { path: appRoutes.news, state: { notice: '“Old” was deleted.' } });
    expect(screen.getByRole('alert')).toHaveTextContent('“Old” was deleted.');
    await screen.findByText(/No news yet/);
  });
});
