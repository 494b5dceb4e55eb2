import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderRoute } from '../../../test/helpers';
import PdfViewerRoute from './pdf-viewer';

// The viewer itself is pdf-viewer.test.tsx's; here only which PDF the route hands it.
vi.mock('@/features/pdf/components/pdf-viewer', () => ({
  PdfViewer: ({ url, id }: { url: string; id: number }) => <p data-testid="viewer">{`${id} ${url}`}</p>,
}));

const open = (search: string) => renderRoute(<PdfViewerRoute />, { path: '/pdfviewer', entry: `/pdfviewer${search}` });

describe('/pdfviewer', () => {
  it('opens PDF 3 without ?id=', () => {
    open('');
    expect(screen.getByTestId('viewer')).toHaveTextContent('3 /download_pdf_by_id/3');
  });

  it.each(['7', '1234567890', '2147483647'])('?id=%s opens that PDF', (id) => {
    open(`?id=${id}`);
    expect(screen.getByTestId('viewer')).toHaveTextContent(`${id} /download_pdf_by_id/${id}`);
  });

  it.each(['abc', '0', '07', '2147483648', '99999999999'])('?id=%s names no PDF: says so, opens none', (id) => {
    open(`?id=${id}`);
    expect(screen.getByText('There is no PDF with this number.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'PDF viewer' })).toBeInTheDocument();
    expect(screen.queryByTestId('viewer')).not.toBeInTheDocument();
  });
});
