import { apiPaths, appRoutes, newsItemPath, serverMessages } from '@hello/contract';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  Link,
  MemoryRouter,
  Route,
  Routes,
  useLocation,
  useNavigationType,
  type MemoryRouterProps,
} from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { installFakeXhr } from '../../../../test/fake-xhr';
import { describeFormRules } from '../../../../test/form-rules';
import {
  deferred,
  headerOf,
  jsonResponse,
  mockFetch,
  renderRoute,
  signedIn,
  spyConsoleError,
  tokenFromOtherTab,
  type FetchHandler,
} from '../../../../test/helpers';
import { newsFile, newsItem } from '../../../../test/news';
import EditNewsRoute from '@/app/routes/edit-news';
import { getAuthState, setUserEmail } from '@/lib/auth';
import { EditNewsForm } from './edit-news-form';
import { fromItemPage } from '../utils/edit-history';

const item = newsItem(7, {
  title: 'Old title',
  content: 'Old content',
  author: 'ann@example.com',
  files: [newsFile(1, 'a.txt', 'text/plain', 5), newsFile(2, 'b.pdf')],
});
const single = newsItem(8, { author: 'ann@example.com', files: [newsFile(3, 'only.pdf')] });
const profileOf = (email: string) => ({
  email,
  first_name: '',
  last_name: '',
  user_profile: { telephone: '', mobile: '', website: '' },
});
const newFile = () => new File(['gamma'], 'c.png', { type: 'image/png' });

/** Answers GET of the items above; `send` answers everything else (the PATCH). */
function serve(send: FetchHandler = () => jsonResponse(404)) {
  const fetchMock = mockFetch((url, init) => {
    if ((init.method ?? 'GET') === 'GET') {
      if (url === newsItemPath(7)) return jsonResponse(200, item);
      if (url === newsItemPath(8)) return jsonResponse(200, single);
      if (url === apiPaths.userProfile) return jsonResponse(200, { ...profileOf('ann@example.com') });
      return jsonResponse(404, { detail: 'Not found.' });
    }
    return send(url, init);
  });
  installFakeXhr(async (url, init) => fetchMock(url, init));
  return fetchMock;
}

const openEdit = (id = 7) => renderRoute(<EditNewsRoute />, { path: appRoutes.editNews, entry: `/news/${id}/edit` });
const patches = (fetchMock: ReturnType<typeof serve>) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH');
const submit = () => screen.getByRole('button', { name: 'Submit' });

/** How the router arrived (POP: back; REPLACE: in the form's place) and where. */
function HistoryProbe() {
  const type = useNavigationType();
  const { pathname } = useLocation();
  return <output data-testid="where">{`${type} ${pathname}`}</output>;
}

describe('edit news', () => {
  beforeEach(() => {
    signedIn();
    setUserEmail('Ann@example.com');
  });

  describeFormRules('edit news form', {
    render: () => <EditNewsForm item={item} onSaved={() => {}} />,
    required: { Title: 'title', Content: 'content' },
    valid: { Title: 'New title', Content: 'New content' },
    submitPath: newsItemPath(7),
    serverError: {
      body: { files: [serverMessages.keepOneFile] },
      label: 'Add files',
      message: serverMessages.keepOneFile,
    },
  });

  it('is prefilled, names its controls as the add form does, and has a Remove files checkbox per file', async () => {
    serve();
    openEdit();
    expect(await screen.findByLabelText('Title')).toHaveValue('Old title');
    expect(screen.getByLabelText('Content')).toHaveValue('Old content');
    const add = screen.getByLabelText('Add files');
    expect(add).toHaveAttribute('name', 'files');
    expect(add).toHaveAttribute('type', 'file');
    expect(add).toHaveAttribute('multiple');
    const group = screen.getByRole('group', { name: 'Remove files' });
    const boxes = within(group).getAllByRole('checkbox');
    expect(boxes.map((box) => [box.getAttribute('name'), box.getAttribute('value')])).toEqual([
      ['remove_files', '1'],
      ['remove_files', '2'],
    ]);
    expect(within(group).getByLabelText('a.txt')).toBe(boxes[0]);
    expect(screen.getByRole('button', { name: 'Reset' })).toHaveAttribute('aria-disabled', 'true');
  });

  it("keeps what is typed while another tab's new token has the e-mail asked again", async () => {
    const fetchMock = serve((url) =>
      url === apiPaths.tokenRefresh ? jsonResponse(200, { access: 'acc2' }) : jsonResponse(404),
    );
    const { user } = openEdit();
    const title = await screen.findByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'New title');
    tokenFromOtherTab('r2'); // the same account's profile saved there
    await waitFor(() => expect(getAuthState().email).toBe('ann@example.com'));
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain(apiPaths.userProfile);
    expect(screen.getByLabelText('Title')).toHaveValue('New title');
  });

  it('sends a multipart PATCH with Bearer: title, content, added files and the ids to remove; then shows the item', async () => {
    const answer = deferred<Response>();
    const fetchMock = serve(() => answer.promise);
    const { user } = openEdit();
    const title = await screen.findByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'New title');
    await user.click(screen.getByLabelText('a.txt'));
    await user.upload(screen.getByLabelText('Add files'), newFile());
    await user.click(submit());

    expect(await screen.findByRole('progressbar', { name: 'Uploading' })).toHaveAttribute('value', '50');
    const [url, init] = patches(fetchMock)[0]!;
    expect(url).toBe('/api/v1/localnews/7/');
    expect(headerOf(init, 'Authorization')).toBe('Bearer acc');
    const body = init!.body as FormData;
    expect(body.get('title')).toBe('New title');
    expect(body.get('content')).toBe('Old content');
    expect(body.getAll('files').map((file) => (file as File).name)).toEqual(['c.png']);
    expect(body.getAll('remove_files')).toEqual(['1']);

    answer.resolve(jsonResponse(200, { ...item, title: 'New title' }));
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/news\/7$/);
  });

  /** Opens the form at the last of `entries`, saves a change, and says how the router went on. */
  async function saveWithHistory(entries: MemoryRouterProps['initialEntries']) {
    serve(() => jsonResponse(200, { ...item, title: 'New title' }));
    const user = userEvent.setup();
    render(
      <MemoryRouter initialEntries={entries}>
        <Routes>
          <Route path={appRoutes.editNews} element={<EditNewsRoute />} />
          <Route path="*" element={<HistoryProbe />} />
        </Routes>
      </MemoryRouter>,
    );
    await user.type(await screen.findByLabelText('Title'), '!');
    await user.click(submit());
    return (await screen.findByTestId('where')).textContent;
  }

  it('goes back to the item page it was opened from instead of adding the item again', async () => {
    const entries = ['/news', '/news/7', { pathname: '/news/7/edit', state: fromItemPage }];
    expect(await saveWithHistory(entries)).toBe('POP /news/7');
  });

  it('puts the item in the place of a form opened otherwise (a typed address, a link from elsewhere)', async () => {
    expect(await saveWithHistory(['/news', '/news/7/edit'])).toBe('REPLACE /news/7');
  });

  it('saves when the page is left meanwhile, and then takes the user nowhere (no going back from there)', async () => {
    const answer = deferred<Response>();
    const fetchMock = serve(() => answer.promise);
    const user = userEvent.setup();
    render(
      <MemoryRouter initialEntries={['/news', '/news/7', { pathname: '/news/7/edit', state: fromItemPage }]}>
        <Link to="/about">About</Link>
        <Routes>
          <Route path={appRoutes.editNews} element={<EditNewsRoute />} />
          <Route path="*" element={<HistoryProbe />} />
        </Routes>
      </MemoryRouter>,
    );
    await user.type(await screen.findByLabelText('Title'), '!');
    await user.click(submit());
    await user.click(screen.getByRole('link', { name: 'About' }));
    expect(screen.getByTestId('where')).toHaveTextContent('PUSH /about');
    await act(async () => answer.resolve(jsonResponse(200, { ...item, title: 'Old title!' })));
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(patches(fetchMock)).toHaveLength(1);
    expect(screen.getByTestId('where')).toHaveTextContent(/^PUSH \/about$/);
  });

  it('refuses to remove every file without adding one (the server’s words on files), and sends nothing', async () => {
    const fetchMock = serve(() => jsonResponse(200, item));
    const { user } = openEdit();
    await user.click(await screen.findByLabelText('a.txt'));
    await user.click(screen.getByLabelText('b.pdf'));
    await user.click(submit());
    expect(screen.getByLabelText('Add files')).toHaveAccessibleDescription(
      expect.stringContaining(serverMessages.keepOneFile),
    );
    expect(patches(fetchMock)).toHaveLength(0);

    await user.upload(screen.getByLabelText('Add files'), newFile());
    expect(screen.getByLabelText('Add files')).not.toHaveAccessibleDescription(
      expect.stringContaining(serverMessages.keepOneFile),
    );
    await user.click(submit());
    expect(await screen.findByTestId('location')).toHaveTextContent('/news/7');
    const body = patches(fetchMock)[0]![1]!.body as FormData;
    expect(body.getAll('remove_files')).toEqual(['1', '2']);
  });

  it('treats the one checkbox of a one-file item as a list too', async () => {
    const fetchMock = serve(() => jsonResponse(200, single));
    const { user } = openEdit(8);
    await user.click(await screen.findByLabelText('only.pdf'));
    await user.click(submit());
    expect(screen.getByLabelText('Add files')).toHaveAccessibleDescription(
      expect.stringContaining(serverMessages.keepOneFile),
    );
    await user.upload(screen.getByLabelText('Add files'), newFile());
    await user.click(submit());
    await screen.findByTestId('location');
    expect((patches(fetchMock)[0]![1]!.body as FormData).getAll('remove_files')).toEqual(['3']);
  });

  it("shows the server's message about files to remove beside them and in the alert", async () => {
    spyConsoleError();
    serve(() => jsonResponse(400, { remove_files: [serverMessages.noSuchFile('2')] }));
    const { user } = openEdit();
    await user.click(await screen.findByLabelText('b.pdf'));
    await user.click(submit());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(`Remove files: ${serverMessages.noSuchFile('2')}`);
    expect(screen.getByRole('group', { name: 'Remove files' })).toHaveAccessibleDescription(
      serverMessages.noSuchFile('2'),
    );
  });

  it('shows the server refusal of a non-author (403) in the form', async () => {
    spyConsoleError();
    serve(() => jsonResponse(403, { detail: serverMessages.permissionDenied }));
    const { user } = openEdit();
    await user.type(await screen.findByLabelText('Title'), '!');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(serverMessages.permissionDenied);
  });

  it('shows no form to someone who is not the author', async () => {
    setUserEmail('bob@example.com');
    serve();
    openEdit();
    expect(await screen.findByText('Only the author can edit this item.')).toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Title')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to/ })).toHaveAttribute('href', '/news/7');
  });

  it('waits for who is signed in before deciding', async () => {
    setUserEmail(null);
    const profile = deferred<Response>();
    mockFetch((url) => (url === apiPaths.userProfile ? profile.promise : jsonResponse(200, item)));
    openEdit();
    await screen.findByRole('status');
    expect(screen.queryByText('Only the author can edit this item.')).not.toBeInTheDocument();
    profile.resolve(jsonResponse(200, { email: 'ann@example.com' }));
    expect(await screen.findByLabelText('Title')).toHaveValue('Old title');
  });

  it('says who is signed in could not be found out (no verdict on the author), and asks again on Retry', async () => {
    spyConsoleError();
    setUserEmail(null);
    let profiles = 0;
    mockFetch((url) =>
      url !== apiPaths.userProfile
        ? jsonResponse(200, item)
        : ++profiles === 1
          ? jsonResponse(503, { detail: 'down' })
          : jsonResponse(200, profileOf('ann@example.com')),
    );
    const { user } = openEdit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your profile could not be loaded.The connection may have dropped, or the server had a problem.',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Edit news item' })).toBeInTheDocument();
    expect(screen.queryByText('Only the author can edit this item.')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByLabelText('Title')).toHaveValue('Old title');
    expect(profiles).toBe(2);
  });

  it('says the item does not exist on a 404', async () => {
    serve();
    openEdit(9);
    expect(await screen.findByText('This news item does not exist (or was deleted).')).toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });
});
