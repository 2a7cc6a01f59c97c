/**
 * One SOAP exchange: parse the envelope, find the operation by the QName
 * of the Body's first child (never SOAPAction), decode, call the handler,
 * encode — and turn every failure into a SOAP 1.1 Fault.
 *
 * @module
 */
import { InvalidRequestError, ServerBusyError } from "../errors.ts";
import { soapWord } from "./_vocabulary.ts";
import { isSoapFault, SoapFault } from "./fault.ts";
import { parseXmlChunks, type XmlLimits, type XmlPacing } from "./xml.ts";
import { decodeRequest } from "./decode.ts";
import { encodeResponse } from "./encode.ts";
import { DEFAULT_NAMESPACE, faultEnvelope, openEnvelope, responseEnvelope } from "./envelope.ts";
import type { Schema } from "./schema.ts";

/** Content type of every SOAP 1.1 message we send. */
export const SOAP_CONTENT_TYPE = "text/xml; charset=utf-8";

/** An HTTP-ready SOAP answer. */
export interface SoapReply {
  status: number;
  body: string;
  contentType: string;
  /** Operation name, when the request got that far (for logs). */
  operation?: string;
}

/** A handler in a dispatch table; `ctx` is whatever the caller's context factory built. */
export type Handler<C> = (
  req: Record<string, unknown>,
  ctx: C,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** What {@link dispatchSoap} needs besides the request text. */
export interface DispatchOptions<C> {
  schema: Schema;
  handlers: Readonly<Record<string, Handler<C>>>;
  /** Builds the handler context for the request's namespace; may throw SoapFault (unknown service). */
  context: (namespace: string) => C | Promise<C>;
  limits?: Partial<XmlLimits>;
  /** How the parse shares the event loop (default: a macrotask every 64 Ki characters). */
  pacing?: XmlPacing;
  /** Called with unexpected (non-SoapFault) errors, e.g. for logging. */
  onError?: (error: unknown, operation?: string) => void;
}

/**
 * A request body: the whole text, or its pieces as they are read (decoded
 * text; the iterator may throw a SoapFault, e.g. for an over-long body).
 */
export type SoapBody = string | AsyncIterable<string>;

/**
 * Handles one SOAP request and returns the reply to send. The body is
 * parsed in slices with pauses between them, so a large request never
 * stalls the other requests the process is serving.
 *
 * @example
 * ```ts
 * import { MAPSERVER_SCHEMA } from "./types.ts";
 * declare const xml: string, handlers: Record<string, Handler<unknown>>, ctxFor: (ns: string) => unknown;
 * const reply = await dispatchSoap(xml, { schema: MAPSERVER_SCHEMA, handlers, context: (ns) => ctxFor(ns) });
 * new Response(reply.body, { status: reply.status, headers: { "content-type": reply.contentType } });
 * ```
 */
export async function dispatchSoap<C>(
  body: SoapBody,
  opts: DispatchOptions<C>,
): Promise<SoapReply> {
  let namespace = DEFAULT_NAMESPACE;
  let opName: string | undefined;
  try {
    const root = await parseXmlChunks(
      typeof body === "string" ? [body] : body,
      opts.limits,
      opts.pacing,
    );
    const { operation, namespace: ns } = openEnvelope(root);
    namespace = ns;
    opName = operation.local;
    const op = opts.schema.operation(operation.local);
    if (!op) {
      throw new SoapFault(
        "Client",
        `Unknown operation "${operation.local}". Supported operations: ${
          opts.schema.operations.map((o) => o.name).join(", ")
        }.`,
        { Operation: operation.local },
      );
    }
    // Decode first: a malformed request is the client's problem even for an unavailable operation.
    const req = decodeRequest(opts.schema, op, operation);
    const handler = opts.handlers[op.name];
    if (!handler) {
      throw new SoapFault("Server", `The operation ${op.name} is not available on this server.`, {
        Operation: op.name,
      });
    }
    const ctx = await opts.context(namespace);
    const result = await handler(req, ctx);
    const inner = encodeResponse(opts.schema, op, result);
    return {
      status: 200,
      body: responseEnvelope(namespace, `${op.name}Response`, inner),
      contentType: SOAP_CONTENT_TYPE,
      operation: op.name,
    };
  } catch (e) {
    let fault: SoapFault;
    if (isSoapFault(e)) fault = e;
    else if (e instanceof InvalidRequestError) {
      fault = new SoapFault("Client", e.wordedIn(soapWord), e.facts);
    } else if (e instanceof ServerBusyError) fault = new SoapFault("Server", e.message);
    else {
      opts.onError?.(e, opName);
      const msg = e instanceof Error ? e.message : String(e);
      fault = new SoapFault("Server", `The server failed to process the request: ${msg}`);
    }
    return {
      status: 500,
      body: faultEnvelope(namespace, fault, opName ? { Operation: opName } : {}),
      contentType: SOAP_CONTENT_TYPE,
      operation: opName,
    };
  }
}
