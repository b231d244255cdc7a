/** Nest injection tokens for the ports and process-wide services. */
export const EVENT_STORE = Symbol('EVENT_STORE');
export const READ_STORE = Symbol('READ_STORE');
export const PROJECTION_HOST = Symbol('PROJECTION_HOST');
/** The opened stores with their DATA_DIR lock, closed together at shutdown. */
export const STORES = Symbol('STORES');
/** The read models this process projects (given by the composition root). */
export const PROJECTIONS = Symbol('PROJECTIONS');
/** The lease engine of a scale-out deployment on shared engines; null otherwise (file locks). */
export const LEASES = Symbol('LEASES');
/** The projector election of a PROJECTIONS=auto scale-out gateway; null otherwise. */
export const PROJECTOR_ELECTION = Symbol('PROJECTOR_ELECTION');
/** The projector child of a gateway alone on its stores (PROJECTOR=process); null otherwise. */
export const PROJECTOR_CHILD = Symbol('PROJECTOR_CHILD');
