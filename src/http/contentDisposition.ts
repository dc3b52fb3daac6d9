/**
 * `Content-Disposition` of a download (RFC 6266): `attachment`, an ASCII `filename` fallback and,
 * for any other name, `filename*` in UTF-8 (RFC 8187 percent-encoding).
 */
export const contentDisposition = (filename: string): string => {
  const ascii = /^[\x20-\x7e]*$/.test(filename);
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  if (ascii) return `attachment; filename="${fallback}"`;
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
};
