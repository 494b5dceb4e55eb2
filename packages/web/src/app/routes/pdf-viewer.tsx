import { useSearchParams } from 'react-router';
import { demoPdfIds, downloadPdfPath } from '@hello/contract';
import { Page } from '@/components/ui/page';
import { PdfMissing } from '@/features/pdf/components/pdf-missing';
import { PdfViewer } from '@/features/pdf/components/pdf-viewer';
import { parsePdfId } from '@/features/pdf/utils/viewer';

/**
 * PDF 3, or the PDF `?id=N` names (any id the server takes): any PDF of the store opens in the viewer.
 * Null for an `id` that names none (`?id=abc`), rather than another PDF than the one asked for.
 */
function viewedId(param: string | null): number | null {
  return param === null ? demoPdfIds.viewer : parsePdfId(param);
}

export default function PdfViewerRoute() {
  const id = viewedId(useSearchParams()[0].get('id'));
  return (
    <Page title="PDF viewer">
      {id === null ? <PdfMissing /> : <PdfViewer key={id} url={downloadPdfPath(id)} id={id} />}
    </Page>
  );
}
