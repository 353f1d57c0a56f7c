//! Algorithm 2.
