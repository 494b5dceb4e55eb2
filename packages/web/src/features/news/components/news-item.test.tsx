import { apiPaths, appRoutes, newsItemPath, serverMessages } from '@hello/contract';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  deferred,
  headerOf,
  jsonResponse,
  mockFetch,
  renderRoute,
  signedIn,
  spyConsoleError,
  type FetchHandler,
} from '../../../../test/helpers';
import { newsFile, newsItem } from '../../../../test/news';
import NewsItemRoute from '@/app/routes/news-item';
import { setUserEmail } from '@/lib/auth';

const item = newsItem(7, {
  title: 'Market on Sunday',
  content:
    'Fresh <b>bread</b> & cheese.\n<script>alert(1)</script>\n\n' +
    'Map: https://example.org/map?x=1&y=2. Not a link: javascript:alert(1) nor data:text/html,hi',
  author: 'Ann@Example.com',
  files: [
    newsFile(1, 'stall.png', 'image/png'),
    newsFile(2, 'crowd.jpeg', 'image/jpeg'),
    newsFile(3, 'logo.svg', 'image/svg+xml'),
    newsFile(4, 'prices.pdf', 'application/pdf', 1536),
  ],
});

const answerItem =
  (extra: FetchHandler = () => jsonResponse(404)): FetchHandler =>
  (url, init) =>
    url === newsItemPath(7) && (init.method ?? 'GET') === 'GET' ? jsonResponse(200, item) : extra(url, init);

const open = () => renderRoute(<NewsItemRoute />, { path: appRoutes.newsItem, entry: '/news/7' });

describe('one news item (/news/{id})', () => {
  beforeEach(() => signedIn());

  it('loads the item with Bearer and shows its title as the heading, the author and the date', async () => {
    setUserEmail('someone@example.com');
    const fetchMock = mockFetch(answerItem());
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Market on Sunday' })).toBeInTheDocument();
    expect(screen.getByText('Ann@Example.com')).toBeInTheDocument();
    expect(document.querySelector('.news-meta time')).toHaveAttribute('dateTime', item.created_at);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v1/localnews/7/');
    expect(headerOf(init, 'Authorization')).toBe('Bearer acc');
  });

  it('loads the item again a minute before its attachment links expire, keeping it on screen meanwhile', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      setUserEmail('someone@example.com');
      const expires = Math.floor(Date.now() / 1000) + 300;
      const signed = {
        ...item,
        files: [{ ...item.files[3]!, url: `/api/v1/localnews/files/4?expires=${expires}&sig=s` }],
      };
      const fetchMock = mockFetch((url) => (url === newsItemPath(7) ? jsonResponse(200, signed) : jsonResponse(404)));
      open();
      await screen.findByRole('heading', { level: 1, name: 'Market on Sunday' });
      expect(fetchMock).toHaveBeenCalledTimes(1);
      await act(() => vi.advanceTimersByTimeAsync(230_000));
      expect(fetchMock).toHaveBeenCalledTimes(1);
      await act(() => vi.advanceTimersByTimeAsync(15_000));
      expect(fetchMock).toHaveBeenCalledTimes(2);
      expect(screen.getByRole('heading', { level: 1, name: 'Market on Sunday' })).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('renders the content as text in paragraphs, never as markup, linking only http(s) addresses safely', async () => {
    setUserEmail('someone@example.com');
    mockFetch(answerItem());
    open();
    await screen.findByRole('heading', { level: 1, name: 'Market on Sunday' });
    const content = document.querySelector<HTMLElement>('.news-content')!;
    const paragraphs = content.querySelectorAll('p');
    expect(paragraphs).toHaveLength(2);
    expect(paragraphs[0]!.textContent).toBe('Fresh <b>bread</b> & cheese.<script>alert(1)</script>');
    expect(paragraphs[0]!.querySelectorAll('br')).toHaveLength(1);
    expect(content.querySelector('b, script')).toBeNull();

    const links = within(content).getAllByRole('link');
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveTextContent(/^https:\/\/example\.org\/map\?x=1&y=2$/);
    expect(links[0]).toHaveAttribute('href', 'https://example.org/map?x=1&y=2');
    expect(links[0]).toHaveAttribute('target', '_blank');
    expect(links[0]).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(paragraphs[1]).toHaveTextContent('javascript:alert(1) nor data:text/html,hi');
  });

  it('lists the attachments with size and download link, previewing only PNG, JPEG, GIF and WebP images', async () => {
    setUserEmail('someone@example.com');
    mockFetch(answerItem());
    open();
    const attachments = await screen.findByRole('region', { name: 'Attachments' });
    expect(within(attachments).getAllByRole('listitem')).toHaveLength(4);
    const pdf = within(attachments).getByRole('link', { name: 'prices.pdf' });
    expect(pdf).toHaveAttribute('href', item.files[3]!.url);
    expect(pdf).toHaveAttribute('download', 'prices.pdf');
    expect(pdf.closest('li')).toHaveTextContent('1.5 KB');

    const images = within(attachments).getAllByRole('img');
    expect(images.map((img) => img.getAttribute('alt'))).toEqual(['stall.png', 'crowd.jpeg']);
    expect(images[0]).toHaveAttribute('src', item.files[0]!.url);
    expect(images[0]).toHaveAttribute('loading', 'lazy');
    expect(within(attachments).getByRole('link', { name: 'logo.svg' })).toBeInTheDocument();
  });

  it('shows Edit and Delete to the author only (e-mails compared regardless of case)', async () => {
    setUserEmail('someone@example.com');
    mockFetch(answerItem());
    const first = open();
    await screen.findByRole('heading', { level: 1, name: 'Market on Sunday' });
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    first.unmount();

    setUserEmail('ann@example.COM');
    open();
    expect(await screen.findByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/news/7/edit');
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
  });

  it('asks who is signed in when the e-mail is not known yet', async () => {
    const fetchMock = mockFetch(
      answerItem((url) =>
        url === apiPaths.userProfile ? jsonResponse(200, { email: 'ann@example.com' }) : jsonResponse(404),
      ),
    );
    open();
    expect(await screen.findByRole('button', { name: 'Delete' })).toBeInTheDocument();
    const profileCalls = fetchMock.mock.calls.filter(([url]) => url === apiPaths.userProfile);
    expect(profileCalls).toHaveLength(1);
    expect(headerOf(profileCalls[0]![1], 'Authorization')).toBe('Bearer acc');
  });

  it('asks before deleting, then sends DELETE with Bearer and goes to /news', async () => {
    setUserEmail('ann@example.com');
    const fetchMock = mockFetch(
      answerItem((url, init) => (init.method === 'DELETE' ? new Response(null, { status: 204 }) : jsonResponse(404))),
    );
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const question = screen.getByRole('group', { name: /Delete this item and its 4 files\? This cannot be undone\./ });
    expect(within(question).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    const deletes = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE');
    expect(deletes()).toHaveLength(0);

    await user.click(within(question).getByRole('button', { name: 'Yes, delete it' }));
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/news$/);
    expect(deletes()).toHaveLength(1);
    const [url, init] = deletes()[0]!;
    expect(url).toBe('/api/v1/localnews/7/');
    expect(headerOf(init, 'Authorization')).toBe('Bearer acc');
  });

  it('sends nothing when the deletion is cancelled (Cancel or Escape), and gives focus back to Delete', async () => {
    setUserEmail('ann@example.com');
    const fetchMock = mockFetch(answerItem());
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toHaveFocus();
    // Escape answers Cancel too.
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toHaveFocus();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE')).toHaveLength(0);
  });

  it('stays on the page and says why when the server refuses the deletion', async () => {
    spyConsoleError();
    setUserEmail('ann@example.com');
    mockFetch(
      answerItem((url, init) =>
        init.method === 'DELETE' ? jsonResponse(403, { detail: serverMessages.permissionDenied }) : jsonResponse(404),
      ),
    );
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete it' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The item was not deleted.');
    expect(alert).toHaveTextContent(serverMessages.permissionDenied);
    expect(screen.getByRole('heading', { level: 1, name: 'Market on Sunday' })).toBeInTheDocument();
    // The question and its buttons are gone: focus is back on Delete, not on <body>.
    expect(screen.getByRole('button', { name: 'Delete' })).toHaveFocus();
  });

  it('counts an item already deleted (404, another tab or device) as deleted', async () => {
    spyConsoleError();
    setUserEmail('ann@example.com');
    mockFetch(answerItem(() => jsonResponse(404, { detail: 'Not found.' })));
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete it' }));
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/news$/);
    expect(screen.getByRole('alert')).toHaveTextContent('“Market on Sunday” was deleted.');
    expect(screen.queryByText(/The item was not deleted/)).not.toBeInTheDocument();
  });

  it('deletes when the page is left meanwhile, and then takes the user nowhere', async () => {
    setUserEmail('ann@example.com');
    const answer = deferred<Response>();
    const fetchMock = mockFetch(
      answerItem((url, init) => (init.method === 'DELETE' ? answer.promise : jsonResponse(404))),
    );
    const Where = () => <output data-testid="where">{useLocation().pathname}</output>;
    const user = userEvent.setup();
    render(
      <MemoryRouter initialEntries={['/news/7']}>
        <Link to="/about">About</Link>
        <Routes>
          <Route path={appRoutes.newsItem} element={<NewsItemRoute />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>,
    );
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete it' }));
    await user.click(screen.getByRole('link', { name: 'About' }));
    await act(async () => answer.resolve(new Response(null, { status: 204 })));
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE')).toHaveLength(1);
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/about$/);
  });

  it('shows the item without Edit and Delete, and no verdict, when who is signed in could not be found out', async () => {
    spyConsoleError();
    let profiles = 0;
    mockFetch(
      answerItem((url) =>
        url !== apiPaths.userProfile
          ? jsonResponse(404)
          : ++profiles === 1
            ? jsonResponse(503, { detail: 'down' })
            : jsonResponse(200, { email: 'ann@example.com' }),
      ),
    );
    const { user } = open();
    expect(
      await screen.findByText('Who is signed in could not be checked: Edit and Delete are not shown.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Market on Sunday' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(screen.queryByText(/could not be checked/)).not.toBeInTheDocument();
    expect(profiles).toBe(2);
  });

  it('shows the real target of a link whose host is written otherwise, and links no deceptive address', async () => {
    setUserEmail('someone@example.com');
    const content = 'See https://bücher.example/a, https://example.org/b and https://bank.example@evil.test/login';
    mockFetch((url) => (url === newsItemPath(7) ? jsonResponse(200, { ...item, content }) : jsonResponse(404)));
    open();
    await screen.findByRole('heading', { level: 1, name: 'Market on Sunday' });
    const links = within(document.querySelector<HTMLElement>('.news-content')!).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('title')])).toEqual([
      ['https://bücher.example/a', 'https://xn--bcher-kva.example/a'],
      ['https://example.org/b', null],
    ]);
  });

  it('says the item does not exist on a 404, with a link to all news', async () => {
    setUserEmail('ann@example.com');
    mockFetch(() => jsonResponse(404, { detail: 'Not found.' }));
    open();
    expect(await screen.findByText('This news item does not exist (or was deleted).')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See all news' })).toHaveAttribute('href', appRoutes.news);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('News item not found');
  });

  it('offers Retry when loading fails for another reason', async () => {
    spyConsoleError();
    setUserEmail('ann@example.com');
    let calls = 0;
    mockFetch((url, init) => (++calls === 1 ? jsonResponse(503) : answerItem()(url, init)));
    const { user } = open();
    expect(await screen.findByRole('alert')).toHaveTextContent('This news item could not be loaded.');
    expect(screen.getByRole('heading', { level: 1, name: 'News item' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Market on Sunday' })).toBeInTheDocument();
  });
});
