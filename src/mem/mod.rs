//! Memory: the functional spaces the executor reads and writes, the request it emits, and the
//! models (banks, coalescing, caches) that consume those requests.
pub mod cache;
pub mod coalesce;
pub mod constant;
pub mod counters;
pub mod request;
pub mod shared_banks;
pub mod space;
pub mod texture;
