//! Memory: the functional spaces the executor reads and writes, the request it emits, and the
//! models (banks, coalescing, caches) that consume those requests.
pub mod request;
pub mod space;
