import { demoPdfIds, downloadPdfPath } from '@hello/contract';
import { Page } from '@/components/ui/page';
import { PdfViewer } from '@/features/pdf/components/pdf-viewer';

export default function PdfViewerRoute() {
  return (
    <Page title="PDF viewer">
      <PdfViewer url={downloadPdfPath(demoPdfIds.viewer)} id={demoPdfIds.viewer} />
    </Page>
  );
}
