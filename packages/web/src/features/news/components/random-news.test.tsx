import { apiPaths, type NewsItem } from '@hello/contract';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { headerOf, jsonResponse, mockFetch, renderRoute, signedIn } from '../../../../test/helpers';
import LocalNewsRoute from '@/app/routes/local-news';
import { pickRandom } from './random-news';

const item = (id: number, title: string): NewsItem => ({
  id,
  title,
  content: '',
  created_at: '2025-01-01T00:00:00Z',
  author: 'a@example.com',
  files: [{ id, name: `file-${id}.pdf`, size: 2048, content_type: 'application/pdf', url: `/signed/${id}` }],
});

describe('pickRandom', () => {
  it('picks by the random number across the whole list', () => {
    expect(pickRandom(['a', 'b', 'c'], () => 0)).toBe('a');
    expect(pickRandom(['a', 'b', 'c'], () => 0.5)).toBe('b');
    expect(pickRandom(['a', 'b', 'c'], () => 0.999)).toBe('c');
    expect(pickRandom([], () => 0.5)).toBeUndefined();
  });
});

describe('local news page', () => {
  beforeEach(() => signedIn());

  it('loads the list with Bearer and credentials, and shows one item title with its attachments', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.6);
    const fetchMock = mockFetch(() => jsonResponse(200, [item(1, 'First'), item(2, 'Second')]));
    renderRoute(<LocalNewsRoute />, { path: '/localnews' });
    expect(await screen.findByRole('heading', { name: 'Second' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Second' })).toHaveAttribute('href', '/news/2');
    expect(screen.getByRole('link', { name: 'All news' })).toHaveAttribute('href', '/news');
    expect(screen.queryByText('First')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'file-2.pdf' })).toHaveAttribute('href', '/signed/2');
    expect(screen.getByRole('link', { name: 'Change password' })).toHaveAttribute('href', '/changepassword');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(apiPaths.localNews);
    expect(headerOf(init, 'Authorization')).toBe('Bearer acc');
    expect(init?.credentials).toBe('include');
  });

  it('says the item is one of the newest when the list has older pages', async () => {
    mockFetch(() =>
      jsonResponse(200, [item(1, 'Only')], { Link: `<${apiPaths.localNews}?limit=50&before=x>; rel="next"` }),
    );
    renderRoute(<LocalNewsRoute />, { path: '/localnews' });
    await screen.findByRole('heading', { name: 'Only' });
    expect(screen.getByText('One of the newest 1 item, picked at random')).toBeInTheDocument();
  });

  it('refresh this page loads the list again without reloading the page', async () => {
    const random = vi.spyOn(Math, 'random').mockReturnValue(0);
    let round = 0;
    const fetchMock = mockFetch(() => {
      round += 1;
      return jsonResponse(200, [item(round, `Title ${round}`)]);
    });
    const { user } = renderRoute(<LocalNewsRoute />, { path: '/localnews' });
    expect(await screen.findByRole('heading', { name: 'Title 1' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'refresh this page' }));
    expect(await screen.findByRole('heading', { name: 'Title 2' })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(random).toHaveBeenCalled();
  });
});
