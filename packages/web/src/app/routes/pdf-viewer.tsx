import { useSearchParams } from 'react-router';
import { demoPdfIds, downloadPdfPath } from '@hello/contract';
import { Page } from '@/components/ui/page';
import { PdfMissing } from '@/features/pdf/components/pdf-missing';
import { PdfViewer } from '@/features/pdf/components/pdf-viewer';

/**
 * PDF 3, or the PDF `?id=N` names (a whole number from 1): any PDF of the store opens in the viewer.
 * Null for an `id` that names none (`?id=abc`), rather than another PDF than the one asked for.
 */
function viewedId(param: string | null): number | null {
  if (param === null) return demoPdfIds.viewer;
  return /^[1-9]\d{0,8}$/.test(param) ? Number(param) : null;
}

export default function PdfViewerRoute() {
  const id = viewedId(useSearchParams()[0].get('id'));
  return (
    <Page title="PDF viewer">
      {id === null ? <PdfMissing /> : <PdfViewer key={id} url={downloadPdfPath(id)} id={id} />}
    </Page>
  );
}
