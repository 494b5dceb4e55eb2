import { open } from 'node:fs/promises';
import path from 'node:path';
import { downloadPdfPath } from '@hello/contract';
import { parseId } from '../routes/parse-id.js';
import { CliError, usageError } from './io.js';
import type { Command } from './command.js';

/** `add-pdf <file.pdf> [--id N] [--title T]`: copies a PDF into the store under a server-chosen name. */
export const addPdfCommand: Command = {
  usage: 'add-pdf <file.pdf> [--id N] [--title T]',
  summary: 'add a PDF (next free id unless --id is given)',
  options: { id: { type: 'string' }, title: { type: 'string' } },
  async run(app, { values, positionals }, io) {
    const [file, ...extra] = positionals;
    if (!file || extra.length > 0) throw usageError(`Usage: hello-admin ${this.usage}`);
    const id = values.id === undefined ? undefined : parseId(String(values.id));
    if (values.id !== undefined && id === undefined)
      throw usageError(`--id must be a whole number from 1, not "${String(values.id)}".`);
    await checkIsPdf(file);
    const fileName = path.basename(file);
    const title =
      typeof values.title === 'string' && values.title.trim() ? values.title.trim() : fileName.replace(/\.pdf$/i, '');
    const pdf = await app.pdfStore.add({ file }, { id, fileName, title });
    if (!pdf) throw new CliError(`PDF id ${id} is taken; choose another --id, or leave it out.`);
    io.out(`Added PDF ${pdf.id}: ${pdf.fileName} (${pdf.size} bytes), served at ${downloadPdfPath(pdf.id)}`);
  },
};

/** `list-pdfs`: every PDF with its size and title. */
export const listPdfsCommand: Command = {
  usage: 'list-pdfs',
  summary: 'list the PDFs',
  options: {},
  async run(app, { positionals }, io) {
    if (positionals.length > 0) throw usageError(`Usage: hello-admin ${this.usage}`);
    const rows = await app.pdfStore.list();
    io.out(['id'.padStart(5), 'bytes'.padStart(10), 'file name'.padEnd(32), 'title'].join('  '));
    for (const row of rows) {
      io.out(
        [String(row.id).padStart(5), String(row.size).padStart(10), row.file_name.padEnd(32), row.title].join('  '),
      );
    }
    io.out(`${rows.length} PDF${rows.length === 1 ? '' : 's'}`);
  },
};

/** A PDF starts with `%PDF-`; anything else is refused before a byte is copied. */
async function checkIsPdf(file: string): Promise<void> {
  const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`Cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  try {
    const { bytesRead, buffer } = await handle
      .read(Buffer.alloc(5), 0, 5, 0)
      .catch(() => ({ bytesRead: 0, buffer: Buffer.alloc(0) }));
    if (bytesRead < 5 || buffer.toString('latin1') !== '%PDF-')
      throw new CliError(`${file} is not a PDF (it does not start with %PDF-).`);
  } finally {
    await handle.close();
  }
}
