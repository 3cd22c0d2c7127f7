//! The modelled GPU: its parameters and the occupancy calculator built on them.
pub mod config;
pub mod occupancy;
