import { Link } from 'react-router';
import { appRoutes } from '@hello/contract';

/** The viewer's text for a PDF the server does not have (or an id that names none). */
export function PdfMissing() {
  return (
    <div className="pdf-missing">
      <p>There is no PDF with this number.</p>
      <p>
        <Link to={appRoutes.pdfViewer}>Open the sample PDF</Link>
      </p>
    </div>
  );
}
