import { Button } from '@/components/ui/button';
import './print.css';

const lines = [
  { item: 'Coffee beans, 1 kg', amount: '18.50' },
  { item: 'Oat milk, 6 × 1 l', amount: '11.94' },
  { item: 'Delivery', amount: '4.90' },
];

/** A static block and a button; the print stylesheet prints this block and nothing else. */
export function PrintSample() {
  return (
    <div className="stack">
      <div className="row no-print">
        <Button onClick={() => window.print()}>Print this sample</Button>
      </div>
      <article className="print-sample" aria-labelledby="sample-title">
        <header className="sample-head">
          <h2 id="sample-title">Sample receipt</h2>
          <p className="muted">No. 0042 · 12 March 2025</p>
        </header>
        <table className="sample-table">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Amount (€)</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr key={line.item}>
                <td>{line.item}</td>
                <td>{line.amount}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td>35.34</td>
            </tr>
          </tfoot>
        </table>
        <p className="sample-note">Thank you for shopping locally.</p>
      </article>
    </div>
  );
}
