import { Rejection } from '../../../kernel/Rejection.js';
import type { RejectionTypes } from '../../../kernel/Rejection.js';

/** Files: the rejections they raise, named as existing clients expect them (wire-storages-files.md). */
export const fileRejections = {
  notFound: (id: string, project: string) => new Rejection('ResourceNotFound', `File '${id}' not found in project '${project}'.`),
  alreadyExists: (id: string, project: string) => new Rejection('ResourceAlreadyExists', `File '${id}' already exists in project '${project}'.`),
  fileTooLarge: (maxFileSize: number) => new Rejection('FileTooLarge', `File size exceeds the max file size for the storage (${maxFileSize} bytes).`),
  capacityExceeded: (left: number) =>
    new Rejection('FileTooLarge', `File size exceeds the space left on the storage (${left} bytes of its capacity remain).`, { spaceLeft: left }),
  invalidMultipartFieldName: () =>
    new Rejection('InvalidMultipartFieldName', "The multipart form-data must have a part named 'file' holding the file's bytes."),
  notMultipart: (contentType: string) =>
    new Rejection(
      'UnsupportedRequestContentTypeRejection',
      `The request's Content-Type '${contentType}' is not supported; a file is uploaded as 'multipart/form-data' with a part named 'file'.`,
    ),
  malformedMultipart: (details: string) => new Rejection('MalformedRequestContentRejection', `The multipart form-data could not be read: ${details}`),
  isDeprecated: (id: string) => new Rejection('FileIsDeprecated', `File '${id}' is deprecated.`),
  fileIsNotDeprecated: (id: string) => new Rejection('FileIsNotDeprecated', `File '${id}' is not deprecated.`),
  rangeNotSatisfiable: (size: number) =>
    new Rejection('RangeNotSatisfiable', `The requested range is not satisfiable: the file holds ${size} bytes.`, { size }),
  fileUnreadable: (id: string, details: string) =>
    new Rejection('FileNotAccessible', `The bytes of file '${id}' cannot be read from its storage.`, { details }),
};

/** Their HTTP statuses: every type of the family has one, or this does not compile. */
export const fileStatuses = {
  ResourceNotFound: 404,
  ResourceAlreadyExists: 409,
  FileTooLarge: 413,
  InvalidMultipartFieldName: 400,
  UnsupportedRequestContentTypeRejection: 415,
  MalformedRequestContentRejection: 400,
  FileIsDeprecated: 400,
  FileIsNotDeprecated: 400,
  RangeNotSatisfiable: 416,
  FileNotAccessible: 500,
} satisfies Record<RejectionTypes<typeof fileRejections>, number>;
