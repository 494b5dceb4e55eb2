/**
 * A multipart body exactly as a browser's FormData encodes it (Node's own encoder), for `app.inject`
 * and for raw HTTP clients that need the bytes up front (autocannon).
 */
export async function multipartBody(
  fields: Record<string, string>,
  files: { name: string; bytes: Uint8Array; type?: string }[] = [],
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files)
    form.append('files', new Blob([f.bytes], { type: f.type ?? 'application/octet-stream' }), f.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}
