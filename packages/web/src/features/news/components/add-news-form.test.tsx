import { apiPaths } from '@hello/contract';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeXhr } from '../../../../test/fake-xhr';
import { describeFormRules } from '../../../../test/form-rules';
import { deferred, headerOf, jsonResponse, mockFetch, renderRoute } from '../../../../test/helpers';
import AddLocalNewsRoute from '@/app/routes/add-local-news';
import { clearAuth, storeRefreshToken } from '@/lib/auth';
import { AddNewsForm } from './add-news-form';

const files = () => [
  new File(['alpha'], 'a.txt', { type: 'text/plain' }),
  new File(['beta'], 'b.pdf', { type: 'application/pdf' }),
];

describe('add news', () => {
  beforeEach(() => {
    clearAuth();
    storeRefreshToken('stored-refresh');
  });

  describeFormRules('add news form', {
    render: () => <AddNewsForm onSuccess={() => {}} />,
    required: { Title: 'title', Content: 'content' },
    valid: { Title: 'Market on Sunday', Content: 'Fresh bread and cheese.' },
    beforeSubmit: (user) => user.upload(screen.getByLabelText('Files'), files()),
    submitPath: apiPaths.localNewsNew,
    serverError: {
      body: { title: ['This field may not be blank.'] },
      label: 'Title',
      message: 'This field may not be blank.',
    },
  });

  it('disables Submit and Reset again once a change is taken back (the file input counts as unchanged)', async () => {
    const { user } = renderRoute(<AddNewsForm onSuccess={() => {}} />);
    const submit = screen.getByRole('button', { name: 'Submit' });
    const title = screen.getByLabelText('Title');
    expect(submit).toHaveAttribute('aria-disabled', 'true');
    await user.type(title, 'x');
    expect(submit).not.toHaveAttribute('aria-disabled');
    await user.clear(title);
    expect(submit).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: 'Reset' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('has a multiple file input named files, Required once a submit was attempted', async () => {
    const { user } = renderRoute(<AddNewsForm onSuccess={() => {}} />);
    const input = screen.getByLabelText('Files');
    expect(input).toHaveAttribute('name', 'files');
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveAttribute('multiple');
    await user.type(screen.getByLabelText('Title'), 'T');
    await user.type(screen.getByLabelText('Content'), 'C');
    expect(input).not.toHaveAccessibleDescription(expect.stringContaining('Required'));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(input).toHaveAccessibleDescription(expect.stringContaining('Required'));
  });

  it('sends multipart with every file under files and the Token header, shows upload progress, then goes to /localnews', async () => {
    const answer = deferred<Response>();
    const fetchMock = mockFetch(() => answer.promise);
    installFakeXhr(async (url, init) => fetchMock(url, init));
    const { user } = renderRoute(<AddLocalNewsRoute />, { path: '/addlocalnews' });
    await user.type(screen.getByLabelText('Title'), 'Market on Sunday');
    await user.type(screen.getByLabelText('Content'), 'Fresh bread.');
    await user.upload(screen.getByLabelText('Files'), files());
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    const bar = await screen.findByRole('progressbar', { name: 'Uploading' });
    expect(bar).toHaveAttribute('value', '50');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(apiPaths.localNewsNew);
    expect(headerOf(init, 'Authorization')).toBe('Token stored-refresh');
    const body = init?.body as FormData;
    expect(body.get('title')).toBe('Market on Sunday');
    expect(body.get('content')).toBe('Fresh bread.');
    expect(body.getAll('files').map((file) => (file as File).name)).toEqual(['a.txt', 'b.pdf']);

    answer.resolve(jsonResponse(201, { id: 41, title: 'Market on Sunday', files: [] }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/localnews');
    // /localnews says so, with the way to the new item.
    expect(screen.getByRole('alert')).toHaveTextContent('“Market on Sunday” was posted. See it');
    expect(screen.getByRole('link', { name: 'See it' })).toHaveAttribute('href', '/news/41');
    // The upload was the only request: the stored token went as is (no refresh exchange first)
    // and the 201 was not followed by a second POST.
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls.map(([calledUrl]) => calledUrl)).toEqual([apiPaths.localNewsNew]);
  });

  it('posts what was sent when the page is left meanwhile, and then takes the user nowhere', async () => {
    const answer = deferred<Response>();
    const fetchMock = mockFetch(() => answer.promise);
    installFakeXhr(async (url, init) => fetchMock(url, init));
    const abort = vi.spyOn(XMLHttpRequest.prototype, 'abort');
    const Where = () => <output data-testid="where">{useLocation().pathname}</output>;
    const user = userEvent.setup();
    render(
      <MemoryRouter initialEntries={['/addlocalnews']}>
        <Link to="/about">About</Link>
        <Routes>
          <Route path="/addlocalnews" element={<AddLocalNewsRoute />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>,
    );
    await user.type(screen.getByLabelText('Title'), 'Market on Sunday');
    await user.type(screen.getByLabelText('Content'), 'Fresh bread.');
    await user.upload(screen.getByLabelText('Files'), files());
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await user.click(screen.getByRole('link', { name: 'About' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/about');
    // Closing the tab would cut the upload off, the page left or not: the browser asks first.
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(true);

    await act(async () => answer.resolve(jsonResponse(201, { id: 41, title: 'Market on Sunday', files: [] })));
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/about$/);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(abort).not.toHaveBeenCalled();
    expect(unload()).toBe(false);
  });
});
