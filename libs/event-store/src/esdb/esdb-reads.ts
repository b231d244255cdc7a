import {
  BACKWARDS,
  FORWARDS,
  type EventStoreDBClient,
  type Filter,
  type ReadPosition,
  type ResolvedEvent,
} from '@eventstore/db-client';

export interface AllPageRequest {
  readonly direction: 'forwards' | 'backwards';
  readonly fromPosition: ReadPosition;
  readonly maxCount: number;
  /** Applied by the server: maxCount then counts matching events, not records scanned. */
  readonly filter?: Filter;
}

/**
 * One page of `$all`. Client 6.2.1's readAll always sends NoFilter although the server's Read call
 * takes a filter (the same FilterOptions subscribeToAll sends), so a filtered page is requested
 * through the client's own protobuf classes and stream plumbing (see docs/decisions.md). A client
 * without those internals (another version, the test double) gets `filter` as a readAll option.
 * Callers re-check every record client-side, so a server that ignored the filter costs only speed.
 */
export async function readAllPage(
  client: EventStoreDBClient,
  request: AllPageRequest,
): Promise<ResolvedEvent[]> {
  const page: ResolvedEvent[] = [];
  const stream =
    (request.filter && grpcFilteredRead(client, request)) ?? plainRead(client, request);
  for await (const resolved of stream) page.push(resolved as ResolvedEvent);
  return page;
}

function plainRead(client: EventStoreDBClient, request: AllPageRequest): AsyncIterable<unknown> {
  const options = {
    fromPosition: request.fromPosition,
    direction: request.direction === 'forwards' ? FORWARDS : BACKWARDS,
    maxCount: request.maxCount,
    ...(request.filter ? { filter: request.filter } : {}),
  };
  return client.readAll(options as Parameters<EventStoreDBClient['readAll']>[0]);
}

interface ClientInternals {
  GRPCStreamCreator?: (
    grpcClient: unknown,
    debugName: string,
    creator: (c: { read(req: unknown, ...args: unknown[]): unknown }) => unknown,
  ) => () => Promise<unknown>;
  callArguments?: (options: object, callOptions?: object) => unknown[];
}

/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-assignment -- internals of the pinned client, loaded lazily */
function grpcFilteredRead(
  client: EventStoreDBClient,
  request: AllPageRequest,
): AsyncIterable<unknown> | undefined {
  const internals = client as unknown as ClientInternals;
  if (typeof internals.GRPCStreamCreator !== 'function' || !internals.callArguments)
    return undefined;
  const filter = request.filter!;
  let modules: {
    streams: typeof import('@eventstore/db-client/generated/streams_pb');
    grpc: typeof import('@eventstore/db-client/generated/streams_grpc_pb');
    shared: typeof import('@eventstore/db-client/generated/shared_pb');
    readStream: typeof import('@eventstore/db-client/dist/streams/utils/ReadStream');
    utils: { convertGrpcEvent: unknown };
  };
  try {
    modules = {
      streams: require('@eventstore/db-client/generated/streams_pb'),
      grpc: require('@eventstore/db-client/generated/streams_grpc_pb'),
      shared: require('@eventstore/db-client/generated/shared_pb'),
      readStream: require('@eventstore/db-client/dist/streams/utils/ReadStream'),
      utils: require('@eventstore/db-client/dist/utils'),
    };
  } catch {
    return undefined;
  }
  const { ReadReq } = modules.streams;
  const options = new ReadReq.Options();
  const all = new ReadReq.Options.AllOptions();
  const from = request.fromPosition;
  if (from === 'start') all.setStart(new modules.shared.Empty());
  else if (from === 'end') all.setEnd(new modules.shared.Empty());
  else {
    const position = new ReadReq.Options.Position();
    position.setCommitPosition(from.commit.toString(10));
    position.setPreparePosition(from.prepare.toString(10));
    all.setPosition(position);
  }
  options.setAll(all);
  options.setResolveLinks(false);
  options.setCount(String(request.maxCount));
  const uuid = new ReadReq.Options.UUIDOption();
  uuid.setString(new modules.shared.Empty());
  options.setUuidOption(uuid);
  options.setReadDirection(request.direction === 'forwards' ? 0 : 1);
  const expression = new ReadReq.Options.FilterOptions.Expression();
  if ('prefixes' in filter) expression.setPrefixList(filter.prefixes);
  else expression.setRegex(filter.regex);
  const filterOptions = new ReadReq.Options.FilterOptions();
  if (filter.filterOn === 'streamName') filterOptions.setStreamIdentifier(expression);
  else filterOptions.setEventType(expression);
  filterOptions.setCount(new modules.shared.Empty());
  filterOptions.setCheckpointintervalmultiplier(1);
  options.setFilter(filterOptions);
  const req = new ReadReq();
  req.setOptions(options);
  const callArguments = internals.callArguments.bind(client);
  const create = internals.GRPCStreamCreator.call(
    client,
    modules.grpc.StreamsClient,
    'readAll',
    (c) => c.read(req, ...callArguments({}, { deadline: Infinity })),
  );
  const ReadStream = modules.readStream.ReadStream as unknown as new (
    create: () => Promise<unknown>,
    convert: unknown,
    options: object,
  ) => AsyncIterable<unknown>;
  return new ReadStream(create, modules.utils.convertGrpcEvent, {});
}
/* eslint-enable @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-assignment */
