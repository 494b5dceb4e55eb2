import { useSearchParams } from 'react-router';
import { demoPdfIds, downloadPdfPath } from '@hello/contract';
import { Page } from '@/components/ui/page';
import { PdfViewer } from '@/features/pdf/components/pdf-viewer';

/** PDF 3, or the PDF `?id=N` names (a whole number from 1): any PDF of the store opens in the viewer. */
function viewedId(param: string | null): number {
  return param && /^[1-9]\d{0,8}$/.test(param) ? Number(param) : demoPdfIds.viewer;
}

export default function PdfViewerRoute() {
  const id = viewedId(useSearchParams()[0].get('id'));
  return (
    <Page title="PDF viewer">
      <PdfViewer key={id} url={downloadPdfPath(id)} id={id} />
    </Page>
  );
}
