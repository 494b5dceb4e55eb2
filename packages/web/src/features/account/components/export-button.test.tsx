import { apiPaths } from '@hello/contract';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  callsTo,
  headerOf,
  jsonResponse,
  mockFetch,
  renderRoute,
  signedIn,
  spyConsoleError,
} from '../../../../test/helpers';
import { ExportButton } from './export-button';

const exported = { exported_at: '2026-03-01T00:00:00Z', profile: { email: 'me@example.com' } };

describe('export my data', () => {
  beforeEach(() => signedIn());

  it('fetches the export with Bearer and hands the file and its Content-Disposition to be saved', async () => {
    const fetchMock = mockFetch(() =>
      jsonResponse(200, exported, { 'Content-Disposition': 'attachment; filename="account-export.json"' }),
    );
    const save = vi.fn(() => 'account-export.json');
    const { user } = renderRoute(<ExportButton save={save} />);
    await user.click(screen.getByRole('button', { name: 'Export my data' }));
    expect(await screen.findByText('Saved as account-export.json')).toBeInTheDocument();
    expect(headerOf(callsTo(fetchMock, apiPaths.exportAccount)[0]?.[1], 'Authorization')).toBe('Bearer acc');
    const [blob, disposition] = save.mock.calls[0] as unknown as [Blob, string];
    expect(disposition).toBe('attachment; filename="account-export.json"');
    expect(JSON.parse(await blob.text())).toEqual(exported);
  });

  it('says when the export could not be downloaded', async () => {
    spyConsoleError();
    mockFetch(() => jsonResponse(500));
    const save = vi.fn(() => 'x');
    const { user } = renderRoute(<ExportButton save={save} />);
    await user.click(screen.getByRole('button', { name: 'Export my data' }));
    expect(await screen.findByText('The export could not be downloaded. Please try again.')).toBeInTheDocument();
    expect(save).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Export my data' })).not.toHaveAttribute('aria-disabled');
  });
});
