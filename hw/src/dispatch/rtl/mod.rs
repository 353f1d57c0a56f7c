//! The dispatcher's RTL: the top ([`dispatch::Dispatch`]) and its free-slot summary
//! ([`free_slots::FreeSlots`]).

pub mod dispatch;
pub mod free_slots;
